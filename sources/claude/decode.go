package claude

import (
	"bytes"
	"encoding/json"

	"ctx/core"
)

// decodeRecord decodes a line that jsonl has already checked to be valid
// JSON. It reports false when the line is not an object or has no string
// type. Fields of an unexpected JSON type are left empty.
func decodeRecord(data []byte, rec *record) bool {
	ok := eachField(data, func(k, v []byte) {
		switch string(k) {
		case "type":
			rec.Type = str(v)
		case "subtype":
			rec.Subtype = str(v)
		case "uuid":
			rec.UUID = str(v)
		case "sessionId":
			rec.SessionID = str(v)
		case "agentId":
			rec.AgentID = str(v)
		case "timestamp":
			rec.Timestamp = str(v)
		case "cwd":
			rec.Cwd = str(v)
		case "gitBranch":
			rec.GitBranch = str(v)
		case "isMeta":
			rec.IsMeta = boolean(v)
		case "isCompactSummary":
			rec.IsCompactSummary = boolean(v)
		case "message":
			rec.Message = decodeMessage(v)
		case "toolUseResult":
			rec.ToolUseResult = v
		case "content":
			rec.Content = v
		default:
			decodeRare(rec, k, v)
		}
	})
	return ok && rec.Type != ""
}

// decodeRare decodes the fields of the less frequent record types.
func decodeRare(rec *record, k, v []byte) {
	switch string(k) {
	case "compactMetadata":
		rec.CompactMetadata = decodeCompactMeta(v)
	case "summary":
		rec.Summary = str(v)
	case "leafUuid":
		rec.LeafUUID = str(v)
	case "aiTitle":
		rec.AITitle = str(v)
	case "customTitle":
		rec.CustomTitle = str(v)
	case "agentName":
		rec.AgentName = str(v)
	case "permissionMode":
		rec.PermissionMode = str(v)
	case "messageId":
		rec.MessageID = str(v)
	case "isSnapshotUpdate":
		rec.IsSnapshotUpdate = boolean(v)
	case "operation":
		rec.Operation = str(v)
	case "attachment":
		rec.Attachment = decodeAttachment(v)
	case "data":
		rec.Data = decodeProgress(v)
	}
}

func decodeMessage(v []byte) *message {
	m := &message{}
	ok := eachField(v, func(k, v []byte) {
		switch string(k) {
		case "id":
			m.ID = str(v)
		case "model":
			m.Model = str(v)
		case "content":
			m.Content = decodeContent(v)
		case "usage":
			m.Usage = decodeUsage(v)
		}
	})
	if !ok {
		return nil
	}
	return m
}

// decodeContent accepts a string or an array of blocks; anything else is
// content that is not Present.
func decodeContent(v []byte) content {
	switch firstByte(v) {
	case '"':
		s, ok := unquote(v)
		return content{Text: s, Present: ok}
	case '[':
		c := content{IsList: true}
		c.Present = eachElem(v, func(e []byte) {
			if b, ok := decodeBlock(e); ok {
				c.Blocks = append(c.Blocks, b)
			}
		})
		return c
	}
	return content{}
}

func decodeBlock(v []byte) (block, bool) {
	var b block
	ok := eachField(v, func(k, v []byte) {
		switch string(k) {
		case "type":
			b.Type = str(v)
		case "text":
			b.Text = str(v)
		case "thinking":
			b.Thinking = str(v)
		case "id":
			b.ID = str(v)
		case "name":
			b.Name = str(v)
		case "input":
			b.Input = v
		case "tool_use_id":
			b.ToolUseID = str(v)
		case "content":
			b.Content = decodeContent(v)
		case "is_error":
			b.IsError = boolean(v)
		case "tool_name":
			b.ToolName = str(v)
		}
	})
	return b, ok
}

// decodeUsage reads a message's token usage; nil when it holds none.
func decodeUsage(v []byte) *core.Tokens {
	t := &core.Tokens{}
	ok := eachField(v, func(k, v []byte) {
		switch string(k) {
		case "input_tokens":
			t.Input, _ = integer(v)
		case "output_tokens":
			t.Output, _ = integer(v)
		case "cache_read_input_tokens":
			t.CacheRead, _ = integer(v)
		case "cache_creation_input_tokens":
			t.CacheCreate, _ = integer(v)
		}
	})
	if !ok || *t == (core.Tokens{}) {
		return nil
	}
	return t
}

func decodeCompactMeta(v []byte) *compactMeta {
	m := &compactMeta{}
	ok := eachField(v, func(k, v []byte) {
		switch string(k) {
		case "trigger":
			m.Trigger = str(v)
		case "preTokens":
			m.PreTokens, _ = integer(v)
		case "postTokens":
			m.PostTokens, _ = integer(v)
		}
	})
	if !ok {
		return nil
	}
	return m
}

func decodeAttachment(v []byte) *attachment {
	a := &attachment{}
	ok := eachField(v, func(k, v []byte) {
		switch string(k) {
		case "type":
			a.Type = str(v)
		case "hookName":
			a.HookName = str(v)
		case "displayPath":
			a.DisplayPath = str(v)
		case "filename":
			a.Filename = str(v)
		case "content":
			a.Content = str(v)
		}
	})
	if !ok {
		return nil
	}
	return a
}

func decodeProgress(v []byte) *progressData {
	d := &progressData{}
	ok := eachField(v, func(k, v []byte) {
		switch string(k) {
		case "type":
			d.Type = str(v)
		case "hookName":
			d.HookName = str(v)
		}
	})
	if !ok {
		return nil
	}
	return d
}

// decodeToolResult decodes the toolUseResult fields used for shells and
// writes; a result that is not an object (an error string) decodes empty.
func decodeToolResult(v []byte) toolResult {
	var r toolResult
	eachField(v, func(k, v []byte) {
		switch string(k) {
		case "type":
			r.Type = str(v)
		case "interrupted":
			r.Interrupted = boolean(v)
		case "backgroundTaskId":
			r.BackgroundTaskID = str(v)
		case "command":
			r.Command = str(v)
		case "exitCode":
			if n, ok := integer(v); ok && n == int64(int(n)) {
				code := int(n)
				r.ExitCode = &code
			}
		}
	})
	return r
}

// decodeObject decodes raw into v with encoding/json when raw is a JSON
// object; anything else leaves v unchanged. Fields of an unexpected type are
// left empty.
func decodeObject(raw []byte, v any) {
	if firstByte(raw) == '{' {
		_ = json.Unmarshal(raw, v)
	}
}

func firstByte(data []byte) byte {
	data = bytes.TrimLeft(data, " \t\r\n")
	if len(data) == 0 {
		return 0
	}
	return data[0]
}
