//go:build !unix

package regular

import "os"

func openNonblock(path string) (*os.File, error) { return os.Open(path) }

func setBlocking(*os.File) error { return nil }
