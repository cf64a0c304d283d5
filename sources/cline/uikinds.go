package cline

// uiKind is how a UI row is normalized.
type uiKind uint8

const (
	uiOther         uiKind = iota // bookkeeping: an other event
	uiPrompt                      // what the user typed
	uiAnswer                      // assistant text
	uiQuestion                    // assistant question or plan: JSON {question|response}
	uiReasoning                   // visible reasoning
	uiTool                        // file tool: JSON {tool, path, content, diff}
	uiCommand                     // a command started
	uiCommandOutput               // streamed command output (merged)
	uiMCPCall                     // JSON {type, serverName, toolName, arguments}
	uiMCPResult                   // an MCP server's response
	uiCondense                    // Roo context condensation (contextCondense.summary)
	uiTruncation                  // Roo sliding-window truncation
	uiError                       // an error notice
	uiAPIRequest                  // api_req_started: JSON {request, tokensIn, tokensOut, cost}
)

// sayKinds are the say values of Cline, Roo Code and Kilo Code.
var sayKinds = map[string]uiKind{
	"task": uiPrompt, "user_feedback": uiPrompt,
	"text": uiAnswer, "completion_result": uiAnswer, "qna_respond": uiAnswer,
	"reasoning": uiReasoning, "tool": uiTool, "command": uiCommand, "command_output": uiCommandOutput,
	"use_mcp_server": uiMCPCall, "mcp_server_response": uiMCPResult,
	"condense_context": uiCondense, "sliding_window_truncation": uiTruncation,
	"error": uiError, "error_retry": uiError, "diff_error": uiError, "clineignore_error": uiError,
	"rooignore_error": uiError, "condense_context_error": uiError, "command_permission_denied": uiError,
	"api_req_started":  uiAPIRequest,
	"api_req_finished": uiOther, "api_req_retried": uiOther, "api_req_retry_delayed": uiOther,
	"api_req_rate_limit_wait": uiOther, "api_req_deleted": uiOther, "deleted_api_reqs": uiOther,
	"image": uiOther, "user_feedback_diff": uiOther, "shell_integration_warning": uiOther,
	"shell_integration_warning_with_suggestion": uiOther, "browser_action_launch": uiOther,
	"browser_action": uiOther, "browser_action_result": uiOther, "mcp_server_request_started": uiOther,
	"mcp_notification": uiOther, "checkpoint_created": uiOther, "checkpoint_saved": uiOther,
	"load_mcp_documentation": uiOther, "generate_explanation": uiOther, "info": uiOther,
	"task_progress": uiOther, "hook_status": uiOther, "hook_output_stream": uiOther, "subagent": uiOther,
	"use_subagents": uiOther, "subagent_usage": uiOther, "conditional_rules_applied": uiOther,
	"partial_tool_result": uiOther, "state_snapshot": uiOther, "subtask_result": uiOther,
	"codebase_search_result": uiOther, "user_edit_todos": uiOther, "too_many_tools_warning": uiOther,
	"inspect_site_result": uiOther,
}

// askKinds are the ask values of Cline, Roo Code and Kilo Code.
var askKinds = map[string]uiKind{
	"followup": uiQuestion, "plan_mode_respond": uiQuestion, "act_mode_respond": uiQuestion,
	"make_plan": uiQuestion, "completion_result": uiAnswer, "qna_respond": uiAnswer,
	"command": uiCommand, "command_output": uiCommandOutput, "tool": uiTool, "use_mcp_server": uiMCPCall,
	"api_req_failed": uiError, "mistake_limit_reached": uiError,
	"resume_task": uiOther, "resume_completed_task": uiOther, "auto_approval_max_req_reached": uiOther,
	"browser_action_launch": uiOther, "new_task": uiOther, "spawn_task": uiOther, "condense": uiOther,
	"change_todo_list": uiOther, "summarize_task": uiOther, "report_bug": uiOther, "use_subagents": uiOther,
	"status_acknowledgment": uiOther, "generate_report": uiOther, "payment_required_prompt": uiOther,
}

// rowKind returns how a row is normalized and whether its type is known.
func rowKind(r *uiRow) (uiKind, bool) {
	var k uiKind
	var ok bool
	switch r.Type {
	case "say":
		k, ok = sayKinds[r.Say]
	case "ask":
		k, ok = askKinds[r.Ask]
	}
	return k, ok
}
