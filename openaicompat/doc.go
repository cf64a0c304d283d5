// Package openaicompat is the one client of OpenAI-compatible HTTP
// servers (OpenAI, Ollama, LM Studio, llama.cpp, vLLM, ...): the base URL
// rule ({endpoint}/v1/..., a trailing /v1 accepted), the bearer key, a
// bounded answer, and the two calls ctx makes: embeddings (semantic
// search) and chat completions (get_context's sessionSummary).
//
// Nothing here reads configuration or the environment: callers pass the
// endpoint and key the user configured, so nothing is sent anywhere else.
package openaicompat
