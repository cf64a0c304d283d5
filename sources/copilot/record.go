package copilot

import "encoding/json"

// record is one line of events.jsonl: {"type","data","id","timestamp",
// "parentId"}, plus "agentId" on events of a subagent (newer builds). It is
// decoded in one pass, data included: the line was already validated.
type record struct {
	Type      string `json:"type"`
	Data      data   `json:"data"`
	ID        string `json:"id"`
	Timestamp string `json:"timestamp"`
	AgentID   string `json:"agentId"`
}

// data holds the fields ctx reads from any event's data; each event type
// fills its own subset.
type data struct {
	// session.start, session.resume
	SessionID      string   `json:"sessionId"`
	CopilotVersion string   `json:"copilotVersion"`
	SelectedModel  string   `json:"selectedModel"`
	Context        *workdir `json:"context"`
	// session.model_change
	NewModel      string `json:"newModel"`
	PreviousModel string `json:"previousModel"`
	// session.info, session.warning, session.error, abort, title
	InfoType    string `json:"infoType"`
	WarningType string `json:"warningType"`
	ErrorType   string `json:"errorType"`
	Message     string `json:"message"`
	Reason      string `json:"reason"`
	Title       string `json:"title"`
	Intent      string `json:"intent"`
	// user.message, assistant.message, assistant.reasoning, system.message
	Content       string          `json:"content"`
	Attachments   []attachment    `json:"attachments"`
	MessageID     string          `json:"messageId"`
	ReasoningID   string          `json:"reasoningId"`
	ReasoningText string          `json:"reasoningText"`
	ToolRequests  []toolRequest   `json:"toolRequests"`
	Model         string          `json:"model"`
	TurnID        json.RawMessage `json:"turnId"`
	// tool.execution_*, subagent.*
	ParentToolCallID string          `json:"parentToolCallId"`
	ToolCallID       string          `json:"toolCallId"`
	ToolName         string          `json:"toolName"`
	Arguments        json.RawMessage `json:"arguments"`
	MCPServerName    string          `json:"mcpServerName"`
	MCPToolName      string          `json:"mcpToolName"`
	Success          *bool           `json:"success"`
	Result           *toolResult     `json:"result"`
	Error            json.RawMessage `json:"error"`
	AgentName        string          `json:"agentName"`
	AgentDescription string          `json:"agentDescription"`
	// session.compaction_complete
	SummaryContent string `json:"summaryContent"`
}

// workdir is session.start's working-directory context.
type workdir struct {
	Cwd        string `json:"cwd"`
	GitRoot    string `json:"gitRoot"`
	Branch     string `json:"branch"`
	Repository string `json:"repository"`
}

// toolRequest is one tool call of an assistant message.
type toolRequest struct {
	ToolCallID    string          `json:"toolCallId"`
	Name          string          `json:"name"`
	Arguments     json.RawMessage `json:"arguments"`
	MCPServerName string          `json:"mcpServerName"`
	MCPToolName   string          `json:"mcpToolName"`
}

// toolResult is tool.execution_complete's result. Contents may carry a
// shell exit code ({"type":"shell_exit"|"terminal","exitCode":N}).
type toolResult struct {
	Content         string `json:"content"`
	DetailedContent string `json:"detailedContent"`
	Contents        []struct {
		Type     string `json:"type"`
		ExitCode *int   `json:"exitCode"`
	} `json:"contents"`
}

// attachment is a user.message attachment (file, directory, selection…).
type attachment struct {
	Type     string `json:"type"`
	Path     string `json:"path"`
	FilePath string `json:"filePath"`
}

// toolError reads a tool error: {"message","code"} or a plain string.
func toolError(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var e struct {
		Message string `json:"message"`
	}
	if json.Unmarshal(raw, &e) == nil && e.Message != "" {
		return e.Message
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	return string(raw)
}

// bookkeeping are the documented event types kept as other events without a
// problem (copilotVersion 1.0.x and the Copilot SDK's session-event schema).
// Types handled as content are not listed here.
var bookkeeping = map[string]bool{
	"session.resume": true, "session.info": true, "session.warning": true, "session.error": true,
	"session.idle": true, "session.mode_changed": true, "session.shutdown": true, "session.usage_info": true,
	"session.usage_checkpoint": true, "session.handoff": true, "session.snapshot_rewind": true,
	"session.context_changed": true, "session.context_cleared": true, "session.plan_changed": true,
	"session.todos_changed": true, "session.workspace_file_changed": true, "session.permissions_changed": true,
	"session.session_limits_changed": true, "session.task_complete": true, "session.remote_steerable_changed": true,
	"session.schedule_created": true, "session.schedule_cancelled": true, "session.schedule_rearmed": true,
	"session.autopilot_objective_changed": true, "session.binary_asset": true, "session.skills_loaded": true,
	"session.tools_updated": true, "session.mcp_servers_loaded": true, "session.mcp_server_status_changed": true,
	"session.extensions_loaded": true, "session.custom_agents_updated": true, "session.custom_notification": true,
	"session.background_tasks_changed": true, "session.auto_mode_resolved": true,
	"session.managed_settings_enforced": true, "session.managed_settings_resolved": true,
	"assistant.turn_start": true, "assistant.turn_end": true, "assistant.usage": true, "assistant.idle": true,
	"assistant.message_start": true, "assistant.server_tool_progress": true, "abort": true,
	"tool.user_requested": true, "tool.execution_partial_result": true, "tool.execution_progress": true,
	"tool_search.activated": true, "skill.invoked": true, "subagent.completed": true, "subagent.failed": true,
	"subagent.selected": true, "subagent.deselected": true, "hook.start": true, "hook.end": true,
	"hook.progress": true, "system.notification": true, "pending_messages.modified": true,
	"permission.requested": true, "permission.completed": true, "model.call_failure": true,
	"command.queued": true, "command.execute": true, "command.completed": true,
	"elicitation.requested": true, "elicitation.completed": true, "exit_plan_mode.requested": true,
	"exit_plan_mode.completed": true, "external_tool.requested": true, "external_tool.completed": true,
	"user_input.requested": true, "user_input.completed": true, "sampling.requested": true,
	"sampling.completed": true, "mcp_app.tool_call_complete": true,
}
