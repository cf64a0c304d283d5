package cursor

import (
	"encoding/json"
	"net/url"
	"strings"

	"ctx/core"
)

// composer is the part of a composerData value (global cursorDiskKV) or of
// an allComposers entry (2024 workspace ItemTable) the parser reads.
type composer struct {
	V             flexInt `json:"_v"`
	ComposerID    string  `json:"composerId"`
	Name          string  `json:"name"`
	CreatedAt     msTime  `json:"createdAt"`
	LastUpdatedAt msTime  `json:"lastUpdatedAt"`
	ModelConfig   *struct {
		Model string `json:"modelName"`
	} `json:"modelConfig"`
	// Headers give the conversation order (bubble rows are separate).
	Headers []struct {
		BubbleID string `json:"bubbleId"`
	} `json:"fullConversationHeadersOnly"`
	// Conversation holds the bubbles inline (2024 and early global values);
	// ConversationMap holds them by id in some versions with headers.
	Conversation        []json.RawMessage          `json:"conversation"`
	ConversationMap     map[string]json.RawMessage `json:"conversationMap"`
	SubagentComposerIDs []string                   `json:"subagentComposerIds"`
	SubagentInfo        *struct {
		ParentComposerID string `json:"parentComposerId"`
		TypeName         string `json:"subagentTypeName"`
	} `json:"subagentInfo"`
	TrackedGitRepos []struct {
		RepoPath string `json:"repoPath"`
		Branches []struct {
			Name string `json:"branchName"`
			Last msTime `json:"lastInteractionAt"`
		} `json:"branches"`
	} `json:"trackedGitRepos"`
	WorkspaceIdentifier *struct {
		URI *fileURI `json:"uri"`
	} `json:"workspaceIdentifier"`
	// CodeBlockData holds the code of 2024 composer edits by file URI.
	CodeBlockData map[string][]codeBlock `json:"codeBlockData"`
}

// fileURI is a serialized editor URI.
type fileURI struct {
	FsPath   string `json:"fsPath"`
	Path     string `json:"path"`
	External string `json:"external"`
}

// localPath is the file system path of the URI.
func (u *fileURI) localPath() string {
	if u == nil {
		return ""
	}
	if u.FsPath != "" {
		return u.FsPath
	}
	if u.Path != "" {
		return u.Path
	}
	return uriPath(u.External)
}

// uriPath converts a file:// URI to a path ("" when it is not one).
func uriPath(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return ""
	}
	p := u.Path
	if len(p) > 3 && p[0] == '/' && p[2] == ':' { // /c:/Users → c:/Users
		p = p[1:]
	}
	return p
}

// codeBlock is one version of a 2024 composer code block.
type codeBlock struct {
	URI     *fileURI `json:"uri"`
	Version int      `json:"version"`
	Content string   `json:"content"`
	Status  string   `json:"status"`
}

// fillSession copies the composer's metadata into the session.
func (c *composer) fillSession(s *core.Session) {
	s.Started, s.Ended = c.CreatedAt.Time, c.LastUpdatedAt.Time
	if c.ModelConfig != nil && c.ModelConfig.Model != "" {
		s.Model = c.ModelConfig.Model
	}
	if c.SubagentInfo != nil {
		s.AgentType = c.SubagentInfo.TypeName
	}
	if c.WorkspaceIdentifier != nil {
		if ws := c.WorkspaceIdentifier.URI.localPath(); ws != "" {
			s.Workspace = ws
		}
	}
	repo, branch := c.gitRepo(s.Workspace)
	if s.Workspace == "" {
		s.Workspace = repo
	}
	s.GitBranch = branch
}

// gitRepo returns the tracked repository holding the workspace (else the
// first one) and its most recently used branch.
func (c *composer) gitRepo(workspace string) (repo, branch string) {
	if len(c.TrackedGitRepos) == 0 {
		return "", ""
	}
	pick := 0
	for i, r := range c.TrackedGitRepos {
		if workspace != "" && r.RepoPath != "" && strings.HasPrefix(workspace, r.RepoPath) {
			pick = i
			break
		}
	}
	r := c.TrackedGitRepos[pick]
	var last msTime
	for _, b := range r.Branches {
		if branch == "" || b.Last.After(last.Time) {
			branch, last = b.Name, b.Last
		}
	}
	return r.RepoPath, branch
}
