// Package wake is the client side of the daemon's socket protocol: the
// bounded, content-free wake every fresh read sends (Wake, WakeOrStart,
// WakeBeforeRead), handing an import to a running daemon
// (ImportViaDaemon), its status (Status, State), stopping it and starting
// it detached. It imports nothing of the daemon itself, so the use cases
// (package app) wake the daemon without linking the import pipeline.
//
// The protocol is one JSON request line and one JSON reply line per
// connection on store.Layout.Socket (0600).
package wake
