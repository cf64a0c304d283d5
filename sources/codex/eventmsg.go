package codex

import (
	"fmt"

	"ctx/core"
)

// knownEvents are event_msg types kept as other events without counting a
// problem: bookkeeping, and (in extended persistence) twins of response
// items such as exec_command_end.
var knownEvents = map[string]bool{
	"task_started": true, "task_complete": true, "turn_started": true, "turn_complete": true,
	"entered_review_mode": true, "exited_review_mode": true, "undo_started": true,
	"undo_completed": true, "thread_rolled_back": true, "process_rolled_back": true,
	"thread_name_updated": true, "error": true, "warning": true, "stream_error": true,
	"background_event": true, "exec_command_begin": true, "exec_command_end": true,
	"patch_apply_begin": true, "patch_apply_end": true, "web_search_begin": true,
	"web_search_end": true, "view_image_tool_call": true, "item_started": true,
	"item_completed": true, "plan_update": true, "turn_diff": true, "image_generation_end": true,
	"guardian_assessment": true, "collab_agent_spawn_end": true, "collab_agent_interaction_end": true,
	"collab_waiting_end": true, "collab_close_end": true, "collab_resume_end": true,
	"dynamic_tool_call_request": true, "dynamic_tool_call_response": true,
	"session_configured": true, "shutdown_complete": true, "deprecation_notice": true,
}

func (p *parser) eventMsg(it *item, data []byte) {
	switch it.Type {
	case "user_message":
		p.uiContent(core.TypeMessage, core.RoleUser, it.Message, it.Kind)
	case "agent_message":
		p.uiContent(core.TypeMessage, core.RoleAssistant, it.Message, "")
	case "agent_reasoning", "agent_reasoning_raw_content":
		p.uiContent(core.TypeReasoning, core.RoleAssistant, it.Text, "")
	case "context_compacted":
		p.add(core.Event{Role: core.RoleSystem, Type: core.TypeCompaction, Native: it.Type,
			Text: "context compacted", Key: p.key("cmp:")})
	case "turn_aborted":
		p.other(it.Type, "turn aborted: "+it.Reason)
	case "token_count":
		p.tokenCount(it.Info)
	case "mcp_tool_call_begin", "mcp_tool_call_end":
		p.mcpEvent(it, data)
	case "error", "warning", "stream_error":
		p.other(it.Type, it.Type+": "+it.Message)
	default:
		if knownEvents[it.Type] {
			p.other(it.Type, snippet(data))
			return
		}
		p.unknown(it.Type, data)
	}
}

// tokenCount keeps a token_count record as an other event that carries
// the usage added since the previous one: Codex repeats its running total,
// so the difference counts each model call once. Input excludes cached
// input, which is CacheRead (as Claude Code records it).
func (p *parser) tokenCount(info *tokenInfo) {
	i := p.add(core.Event{Role: core.RoleSystem, Type: core.TypeOther, Native: "token_count",
		Text: core.Clip(tokenText(info), maxOther), Key: p.key("oth:")})
	if info == nil || info.Total == nil {
		return
	}
	t, prev := *info.Total, p.tokens
	if t.Total < prev.Total { // a new running total
		prev = tokenUsage{}
	}
	p.tokens = t
	d := core.Tokens{Input: (t.Input - t.Cached) - (prev.Input - prev.Cached), Output: t.Output - prev.Output,
		CacheRead: t.Cached - prev.Cached}
	if d.Input > 0 || d.Output > 0 || d.CacheRead > 0 {
		p.event(i).Tokens = &d
	}
}

func tokenText(info *tokenInfo) string {
	if info == nil {
		return "token count"
	}
	var total, last int64
	if info.Total != nil {
		total = info.Total.Total
	}
	if info.Last != nil {
		last = info.Last.Total
	}
	return fmt.Sprintf("tokens total=%d last=%d window=%d", total, last, info.Window)
}
