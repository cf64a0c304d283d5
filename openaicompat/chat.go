package openaicompat

import (
	"context"
	"fmt"
	"strings"
)

// Message is one chat message.
type Message struct {
	Role    string `json:"role"` // system, user, assistant
	Content string `json:"content"`
}

type chatRequest struct {
	Model       string    `json:"model"`
	Messages    []Message `json:"messages"`
	MaxTokens   int       `json:"max_tokens,omitempty"`
	Temperature float64   `json:"temperature"`
	Stream      bool      `json:"stream"`
}

type chatResponse struct {
	Choices []struct {
		Message Message `json:"message"`
	} `json:"choices"`
}

// maxChatAnswer bounds the bytes of a chat answer read.
const maxChatAnswer = 4 << 20

// Chat asks model for the completion of messages (POST
// {endpoint}/v1/chat/completions, not streamed, temperature 0) and returns
// the first choice's text.
func (c *Client) Chat(ctx context.Context, model string, messages []Message, maxTokens int) (string, error) {
	var res chatResponse
	err := c.Post(ctx, "chat/completions", chatRequest{Model: model, Messages: messages, MaxTokens: maxTokens}, &res,
		maxChatAnswer)
	if err != nil {
		return "", err
	}
	if len(res.Choices) == 0 || strings.TrimSpace(res.Choices[0].Message.Content) == "" {
		return "", fmt.Errorf("%w: the answer has no message", ErrServer)
	}
	return strings.TrimSpace(res.Choices[0].Message.Content), nil
}
