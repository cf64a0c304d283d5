package ui

func stopBrowser() {}
