package claude

import (
	"strings"

	"ctx/core"
)

// record is one transcript line. Only the fields the parser uses are decoded;
// large payloads (snapshots, usage, structured results) are skipped. Raw
// fields point into the line and are valid only while it is handled.
type record struct {
	Type, Subtype, UUID  string
	SessionID, AgentID   string
	Timestamp            string
	Cwd, GitBranch       string
	IsMeta               bool
	IsCompactSummary     bool
	Message              *message
	ToolUseResult        []byte // raw
	Content              []byte // raw: system and queue-operation content
	CompactMetadata      *compactMeta
	Summary, LeafUUID    string
	AITitle, CustomTitle string
	AgentName            string
	PermissionMode       string
	MessageID            string
	IsSnapshotUpdate     bool
	Operation            string
	Attachment           *attachment
	Data                 *progressData
}

type message struct {
	ID, Model string
	Content   content
	Usage     *core.Tokens
}

// content is a message or tool_result content: a string or a list of blocks.
// Present is false when the content is missing or of another JSON type.
type content struct {
	Text    string
	Blocks  []block
	IsList  bool
	Present bool
}

// block is one content block of any kind; fields not used by a kind stay empty.
type block struct {
	Type, Text, Thinking string
	ID, Name             string
	Input                []byte // raw tool_use input
	ToolUseID            string
	Content              content
	IsError              bool
	ToolName             string
}

type compactMeta struct {
	Trigger               string
	PreTokens, PostTokens int64
}

type attachment struct {
	Type, HookName        string
	DisplayPath, Filename string
	Content               string // when a string
}

type progressData struct {
	Type, HookName string
}

// toolInput holds the input fields of the tools whose calls are interpreted
// (shell commands and file reads and edits).
type toolInput struct {
	Command      string      `json:"command"`
	FilePath     string      `json:"file_path"`
	OldString    string      `json:"old_string"`
	NewString    string      `json:"new_string"`
	Content      string      `json:"content"`
	Edits        []editInput `json:"edits"`
	NotebookPath string      `json:"notebook_path"`
	NewSource    string      `json:"new_source"`
}

type editInput struct {
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
}

// toolResult holds the toolUseResult fields used for shells and writes.
type toolResult struct {
	Type             string // Write: create or update
	Interrupted      bool
	BackgroundTaskID string
	Command          string // BashOutput
	ExitCode         *int
}

// plain renders content as text: a string as is, text blocks joined by sep,
// images and other non-text blocks as a bracketed placeholder.
func (c *content) plain(sep string) string {
	if !c.IsList {
		return c.Text
	}
	if len(c.Blocks) == 1 && c.Blocks[0].Type == "text" {
		return c.Blocks[0].Text
	}
	var sb strings.Builder
	for i := range c.Blocks {
		s := c.Blocks[i].placeholder()
		if s == "" {
			continue
		}
		if sb.Len() > 0 {
			sb.WriteString(sep)
		}
		sb.WriteString(s)
	}
	return sb.String()
}

// placeholder renders a block inside plain text.
func (b *block) placeholder() string {
	switch b.Type {
	case "text":
		return b.Text
	case "image":
		return "[image]"
	case "tool_reference":
		return "[tool_reference " + b.ToolName + "]"
	case "tool_result":
		return b.Content.plain("\n")
	case "":
		return ""
	}
	return "[" + core.Clip(b.Type, 64) + "]"
}
