// Package version is the version of ctx that both of its binaries (ctx
// and ctx-mcp) report.
package version

// Version is this build's version.
const Version = "0.1.0-dev"
