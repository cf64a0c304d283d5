//go:build tools

package tools

import (
	_ "github.com/BurntSushi/toml"
	_ "github.com/blevesearch/bleve/v2"
	_ "github.com/fsnotify/fsnotify"
	_ "github.com/go-git/go-git/v5"
	_ "github.com/goccy/go-yaml"
	_ "github.com/klauspost/compress/zstd"
	_ "github.com/mark3labs/mcp-go/mcp"
	_ "github.com/mattn/go-isatty"
	_ "github.com/modelcontextprotocol/go-sdk/mcp"
	_ "github.com/rogpeppe/go-internal/testscript"
	_ "github.com/spf13/cobra"
	_ "github.com/tailscale/hujson"
	_ "github.com/zeebo/blake3"
	_ "modernc.org/sqlite"
)
