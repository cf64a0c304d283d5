package cursor

import (
	"encoding/json"
	"hash/fnv"
	"path/filepath"
	"strconv"
	"strings"

	"ctx/core"
	"ctx/sources/regular"
)

// ItemTable keys of 2024 workspace databases that hold conversations.
const (
	keyChatData  = "workbench.panel.aichat.view.aichat.chatdata"
	keyComposers = "composer.composerData"
	keyPrompts   = "aiService.prompts"
)

// itemTable reads the conversation keys of ItemTable. Only these keys are
// read: ItemTable also holds settings and auth tokens.
func (p *parser) itemTable() error {
	for _, k := range []struct {
		key  string
		read func([]byte)
	}{{keyChatData, p.chatTabs}, {keyComposers, p.legacyComposers}, {keyPrompts, p.prompts}} {
		v, ok, err := p.st.value(tableItems, k.key)
		if err != nil {
			return err
		}
		if ok {
			k.read(v)
		}
	}
	return nil
}

// chatTab is one tab of the 2024 chat panel.
type chatTab struct {
	TabID        string            `json:"tabId"`
	Title        string            `json:"chatTitle"`
	LastSendTime msTime            `json:"lastSendTime"`
	Bubbles      []json.RawMessage `json:"bubbles"`
}

// chatBubble is one message of a chat tab.
type chatBubble struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	Text      string `json:"text"`
	RawText   string `json:"rawText"`
	ModelType string `json:"modelType"`
}

// chatTabs makes one session per chat panel tab. The tab's last send time
// is the only time it records, so it dates the whole session.
func (p *parser) chatTabs(value []byte) {
	var cd struct {
		Tabs []json.RawMessage `json:"tabs"`
	}
	if !p.decode(value, &cd) {
		return
	}
	for _, raw := range cd.Tabs {
		var tab chatTab
		if !p.decode(raw, &tab) {
			continue
		}
		if tab.TabID == "" {
			p.problem(core.ProblemInvalidRecord)
			continue
		}
		b := p.newSession(tab.TabID, tab.Title)
		b.ps.Session.Started, b.ps.Session.Ended = tab.LastSendTime.Time, tab.LastSendTime.Time
		for _, rb := range tab.Bubbles {
			b.chatBubble(rb)
		}
		p.finish(b)
	}
}

func (b *sessionBuilder) chatBubble(raw []byte) {
	var cb chatBubble
	if !b.p.decode(raw, &cb) {
		return
	}
	text := cb.Text
	if strings.TrimSpace(text) == "" {
		text = cb.RawText
	}
	switch cb.Type {
	case "user":
		if strings.TrimSpace(text) != "" {
			b.add(core.Event{Role: core.RoleUser, Type: core.TypeMessage, Text: text, Key: cb.ID})
		}
	case "ai":
		if b.model == "" {
			b.model = cb.ModelType
		}
		if strings.TrimSpace(text) != "" {
			b.add(core.Event{Role: core.RoleAssistant, Type: core.TypeMessage, Text: text,
				Model: cb.ModelType, Key: cb.ID})
		}
	default:
		b.p.problem(core.ProblemUnknownRecord)
		b.add(core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: "chat_bubble_" + cb.Type,
			Text: text, Key: cb.ID})
	}
}

// legacyComposers reads the composers of a workspace database. Entries
// with an inline conversation are 2024 composers; entries without one are
// an index of composers kept in the global database and are skipped.
func (p *parser) legacyComposers(value []byte) {
	var all struct {
		AllComposers []json.RawMessage `json:"allComposers"`
	}
	if !p.decode(value, &all) {
		return
	}
	for _, raw := range all.AllComposers {
		var c composer
		if !p.decode(raw, &c) || len(c.Conversation) == 0 {
			continue
		}
		if c.ComposerID == "" {
			p.problem(core.ProblemInvalidRecord)
			continue
		}
		c.Headers = nil
		_ = p.composerSession(&c, composerLinks{})
	}
}

// prompt is one entry of the prompt history.
type prompt struct {
	Text        string  `json:"text"`
	CommandType flexInt `json:"commandType"`
}

// prompts makes one session of the workspace's prompt history: the inputs
// typed into chat, composer and inline edits, without times. They repeat
// prompts of the conversations, so they are other events, searchable but
// not counted as conversation.
func (p *parser) prompts(value []byte) {
	var list []json.RawMessage
	if !p.decode(value, &list) {
		return
	}
	b := p.newSession("prompts:"+p.opt.scope, "Prompt history")
	for _, raw := range list {
		var pr prompt
		if !p.decode(raw, &pr) || strings.TrimSpace(pr.Text) == "" {
			continue
		}
		h := fnv.New64a()
		h.Write([]byte(pr.Text))
		b.add(core.Event{Role: core.RoleUser, Type: core.TypeOther, Native: keyPrompts, Text: pr.Text,
			Key: "prompt:" + strconv.FormatUint(h.Sum64(), 16)})
	}
	p.finish(b)
}

// readWorkspaceJSON returns the folder of a workspace database from the
// workspace.json beside it ("" when there is none).
func readWorkspaceJSON(dbPath string) string {
	data, err := regular.ReadFile(filepath.Join(filepath.Dir(dbPath), "workspace.json"))
	if err != nil {
		return ""
	}
	var w struct {
		Folder    string `json:"folder"`
		Workspace string `json:"workspace"`
	}
	if json.Unmarshal(data, &w) != nil {
		return ""
	}
	if w.Folder != "" {
		return uriPath(w.Folder)
	}
	if p := uriPath(w.Workspace); p != "" {
		return filepath.Dir(p)
	}
	return ""
}
