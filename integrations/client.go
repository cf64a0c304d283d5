package integrations

import (
	"path/filepath"
	"sort"
	"strings"
)

// Env is everything the package reads of the outside world besides the
// configuration files themselves.
type Env struct {
	Home   string              // the user's home directory
	Getenv func(string) string // environment lookup; nil means an empty environment
	OS     string              // runtime.GOOS of the machine the files belong to
}

func (e Env) get(key string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(key)
}

// configHome is $XDG_CONFIG_HOME, else ~/.config.
func (e Env) configHome() string {
	if x := e.get("XDG_CONFIG_HOME"); x != "" && filepath.IsAbs(x) {
		return x
	}
	return filepath.Join(e.Home, ".config")
}

// Scope says which of a client's configuration files is edited.
type Scope string

// The scopes: the user's own file, or a project directory's file.
const (
	ScopeUser    Scope = "user"
	ScopeProject Scope = "project"
)

type family int

const (
	familyJSON family = iota // JSON or JSONC, edited through hujson
	familyTOML               // Codex config.toml, edited textually
)

// Client is one supported MCP client and where it keeps its servers.
type Client struct {
	ID   string // stable name for --client
	Name string // display name

	family  family
	user    func(Env) string        // the user-scope file
	marker  func(Env) string        // directory whose existence means the client is installed
	project func(dir string) string // the project-scope file; nil when the client has none
	shape   shapeFunc               // JSON family: container and entry format
}

// HasProjectScope reports whether the client has a project-scope file.
func (c *Client) HasProjectScope() bool { return c.project != nil }

// Path returns the file the client reads in the scope; project is the
// project directory, used only for ScopeProject.
func (c *Client) Path(env Env, scope Scope, project string) string {
	if scope == ScopeProject {
		return c.project(project)
	}
	return c.user(env)
}

// Clients returns every supported client, in display order.
func Clients() []*Client { return clients }

// ClientIDs returns the ids of the supported clients, sorted.
func ClientIDs() []string {
	var ids []string
	for _, c := range clients {
		ids = append(ids, c.ID)
	}
	sort.Strings(ids)
	return ids
}

// Lookup returns the client with the id (or an alias such as "claude").
func Lookup(id string) (*Client, error) {
	id = strings.ToLower(id)
	if a, ok := aliases[id]; ok {
		id = a
	}
	for _, c := range clients {
		if c.ID == id {
			return c, nil
		}
	}
	return nil, &UnknownClientError{Name: id, Known: ClientIDs()}
}

var aliases = map[string]string{
	"claude": "claude-code", "gemini": "gemini-cli", "copilot": "copilot-cli", "code": "vscode",
}

func joinNames(names []string) string { return strings.Join(names, ", ") }

func home(parts ...string) func(Env) string {
	return func(e Env) string { return filepath.Join(append([]string{e.Home}, parts...)...) }
}

func inProject(parts ...string) func(string) string {
	return func(dir string) string { return filepath.Join(append([]string{dir}, parts...)...) }
}

// envDir returns $name when it is set to an absolute path, else ~/fallback.
func envDir(name, fallback string) func(Env) string {
	return func(e Env) string {
		if v := e.get(name); v != "" && filepath.IsAbs(v) {
			return v
		}
		return filepath.Join(e.Home, fallback)
	}
}

func inDir(dir func(Env) string, file string) func(Env) string {
	return func(e Env) string { return filepath.Join(dir(e), file) }
}

var (
	codexHome   = envDir("CODEX_HOME", ".codex")
	copilotHome = envDir("COPILOT_HOME", ".copilot")
)

// vscodeUserDir is VS Code's user profile directory.
func vscodeUserDir(e Env) string {
	switch e.OS {
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support", "Code", "User")
	case "windows":
		if a := e.get("APPDATA"); a != "" {
			return filepath.Join(a, "Code", "User")
		}
		return filepath.Join(e.Home, "AppData", "Roaming", "Code", "User")
	}
	return filepath.Join(e.configHome(), "Code", "User")
}

// zedDir is Zed's configuration directory (~/.config/zed on macOS too).
func zedDir(e Env) string {
	if e.OS == "windows" {
		if a := e.get("APPDATA"); a != "" {
			return filepath.Join(a, "Zed")
		}
	}
	return filepath.Join(e.configHome(), "zed")
}

func opencodeDir(e Env) string { return filepath.Join(e.configHome(), "opencode") }

var clients = []*Client{
	{ID: "claude-code", Name: "Claude Code", user: home(".claude.json"), marker: home(".claude"),
		project: inProject(".mcp.json"), shape: fixedShape([]string{"mcpServers"}, claudeEntry)},
	{ID: "cursor", Name: "Cursor", user: home(".cursor", "mcp.json"), marker: home(".cursor"),
		project: inProject(".cursor", "mcp.json"), shape: fixedShape([]string{"mcpServers"}, plainEntry)},
	{ID: "codex", Name: "Codex CLI", family: familyTOML, user: inDir(codexHome, "config.toml"), marker: codexHome,
		project: inProject(".codex", "config.toml")},
	{ID: "gemini-cli", Name: "Gemini CLI", user: home(".gemini", "settings.json"), marker: home(".gemini"),
		project: inProject(".gemini", "settings.json"), shape: fixedShape([]string{"mcpServers"}, plainEntry)},
	{ID: "vscode", Name: "VS Code", user: inDir(vscodeUserDir, "mcp.json"), marker: vscodeUserDir,
		project: inProject(".vscode", "mcp.json"), shape: fixedShape([]string{"servers"}, typedEntry("stdio"))},
	{ID: "windsurf", Name: "Windsurf", user: home(".codeium", "windsurf", "mcp_config.json"),
		marker: home(".codeium", "windsurf"), shape: fixedShape([]string{"mcpServers"}, plainEntry)},
	{ID: "zed", Name: "Zed", user: inDir(zedDir, "settings.json"), marker: zedDir,
		project: inProject(".zed", "settings.json"), shape: fixedShape([]string{"context_servers"}, plainEntry)},
	{ID: "opencode", Name: "OpenCode", user: opencodeFile(opencodeDir), marker: opencodeDir,
		project: func(dir string) string { return opencodeFile(func(Env) string { return dir })(Env{}) },
		shape:   opencodeShape},
	{ID: "copilot-cli", Name: "Copilot CLI", user: inDir(copilotHome, "mcp-config.json"), marker: copilotHome,
		shape: fixedShape([]string{"mcpServers"}, copilotEntry)},
}
