package gemini

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"time"

	"ctx/core"
	"ctx/sources/jsonl"
	"ctx/sources/jsonx"
)

// parseLog reads a JSONL chat log into the builder.
func (b *builder) parseLog(r io.Reader) error {
	problems, err := jsonl.Read(r, b.line)
	if err != nil {
		return err
	}
	for _, p := range problems {
		b.problemAt(p.Code, p.Line)
	}
	return nil
}

// line handles one good JSON line.
func (b *builder) line(l jsonl.Line) error {
	if jsonx.FirstByte(l.Data) != '{' {
		b.problemAt(core.ProblemInvalidRecord, l.No)
		return nil
	}
	var rec logRecord
	if err := json.Unmarshal(l.Data, &rec); err != nil {
		// A field of an unexpected type: keep what decoded.
		b.problemAt(core.ProblemInvalidRecord, l.No)
	}
	b.records++
	switch {
	case rec.RewindTo != nil:
		b.rewind(rec.RewindTo, l.No)
	case rec.Set != nil:
		b.set(rec.Set, l.No)
	case rec.ID != "":
		b.upsert(rec.message, l.No)
	case rec.SessionID != "":
		b.haveMeta = true
		b.mergeMeta(rec.meta)
		if rec.Messages != nil {
			b.messages(rec.Messages, l.No)
		}
	default:
		b.unknown(l.Data, l.No)
	}
	return nil
}

// rewind removes the target message and every entry after it, as Gemini
// CLI does. A target that is not in the session is a counted problem and
// changes nothing: Gemini itself would clear the whole conversation, which
// would lose every earlier message.
func (b *builder) rewind(raw json.RawMessage, line int) {
	if jsonx.FirstByte(raw) != '"' {
		b.problemAt(core.ProblemInvalidRecord, line)
		return
	}
	i, ok := b.pos[jsonString(raw)]
	if !ok {
		b.problemAt(ProblemRewindUnknownTarget, line)
		return
	}
	for _, e := range b.entries[i:] {
		if e.msg != nil {
			delete(b.pos, e.msg.ID)
		}
	}
	clear(b.entries[i:])
	b.entries = b.entries[:i]
}

// set applies a $set patch: metadata fields, and a messages checkpoint.
func (b *builder) set(raw json.RawMessage, line int) {
	if jsonx.FirstByte(raw) != '{' {
		b.problemAt(core.ProblemInvalidRecord, line)
		return
	}
	var s setRecord
	if err := json.Unmarshal(raw, &s); err != nil {
		b.problemAt(core.ProblemInvalidRecord, line)
	}
	b.mergeMeta(s.meta)
	if s.Messages != nil {
		b.checkpoint(s.Messages, parseTime(s.LastUpdated), line)
	}
}

// checkpoint applies $set.messages, the agent's history written whole after
// a compression, an aborted turn or masked tool output. Gemini CLI replaces
// the conversation with it; ctx keeps what it read before (the original
// text of masked outputs, the turns that left the context) and adds the
// checkpoint's new messages. When the checkpoint leaves earlier messages
// out, a compaction event marks the place.
func (b *builder) checkpoint(raw json.RawMessage, ts time.Time, line int) {
	msgs, ok := b.messageArray(raw, line)
	if !ok {
		return
	}
	b.checkpoints++
	listed := make(map[string]bool, len(msgs))
	for _, m := range msgs {
		listed[m.ID] = true
	}
	dropped := 0
	for id := range b.pos {
		if !listed[id] {
			dropped++
		}
	}
	if dropped > 0 {
		b.mark(core.Event{Timestamp: ts, Role: core.RoleSystem, Type: core.TypeCompaction,
			Native: "checkpoint", Key: "checkpoint#" + strconv.Itoa(b.checkpoints),
			Text: fmt.Sprintf("history checkpoint: %d earlier messages left the agent's context", dropped)}, line)
	}
	for _, m := range msgs {
		if _, ok := b.pos[m.ID]; !ok {
			b.upsert(m, line)
		}
	}
}

// messages upserts the elements of a messages array (a metadata line that
// carries the whole conversation).
func (b *builder) messages(raw json.RawMessage, line int) {
	msgs, _ := b.messageArray(raw, line)
	for _, m := range msgs {
		b.upsert(m, line)
	}
}

// messageArray decodes a messages array; elements that are not messages
// with an id are counted and skipped. It reports false when raw is not an
// array.
func (b *builder) messageArray(raw json.RawMessage, line int) ([]message, bool) {
	var items []json.RawMessage
	if jsonx.FirstByte(raw) != '[' || json.Unmarshal(raw, &items) != nil {
		b.problemAt(core.ProblemInvalidRecord, line)
		return nil, false
	}
	msgs, bad := decodeMessages(items)
	for range bad {
		b.problemAt(core.ProblemInvalidRecord, line)
	}
	return msgs, true
}

// unknown keeps a record of no known kind as an other event and counts it.
// Its key is its rank among unknown records, which appending never changes.
func (b *builder) unknown(data []byte, line int) {
	b.problemAt(core.ProblemUnknownRecord, line)
	b.others++
	b.mark(core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: "unknown",
		Text: snippet(data), Key: "record#" + strconv.Itoa(b.others)}, line)
}
