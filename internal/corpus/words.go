package corpus

import "strings"

// Prose vocabulary by word class, most frequent first (each drawn Zipf).
var nouns = strings.Fields(`
test file function error change value index session event query store
config type field method package module result output input path line
cache request response handler client server worker batch cursor page
limit timeout deadline context goroutine channel lock race retry bug
issue failure panic stack trace log message prompt tool command shell
flag option default schema migration table column row transaction
commit branch diff patch hunk review build release version dependency
benchmark allocation latency throughput memory heap profile snapshot
generation manifest object hash digest checksum token secret header
body payload encoder decoder parser reader writer buffer slice map key
entry list count size offset timestamp order boundary edge case
fixture golden subtest assertion helper wrapper interface struct
constant variable endpoint route status directory workspace repo
script target job queue scheduler metric counter gauge shard segment
`)

var verbs = strings.Fields(`
fix check update add remove rename move extract read write parse load
save run test build merge split sort filter handle return skip retry
flush close open lock validate normalize resolve encode decode cache
index search import export refactor inline wrap guard log trace
measure profile reproduce verify compare revert pin bump regenerate
`)

var adjectives = strings.Fields(`
failing flaky stale empty nil missing wrong slow fast large small
new old previous current next last first unused duplicate invalid
partial torn trailing leading nested concurrent deterministic stable
`)

// sentenceTemplates are the prose shapes. Placeholders: %n noun, %N plural
// noun, %v verb, %V capitalized verb, %a adjective, %A article and
// adjective, %i identifier, %p path, %s short sha, %d number, %t test
// command.
var sentenceTemplates = []string{
	"I'll %v the %n in %p so the %n stays %a.",
	"The %a %n comes from %i, which does not %v the %n.",
	"Let me check how %i handles the %a %n.",
	"%V the %n first, then %v %i.",
	"This looks like the %n %n: %i returns %A %n when the %n is %a.",
	"Running %t now passes; the %a %n was in %p.",
	"%i is called from %d places, so we should %v it in one %n.",
	"We need to %v the %n before the %n is %a.",
	"The %n %n in %p still uses %i.",
	"Commit %s moved %i into %p.",
	"Now %v the %a %n and keep %i as it is.",
	"There are %d %a %N left in %p.",
	"The %n fails because %i does not %v the %a %n.",
	"I changed %i to %v the %n instead of the %n.",
	"%t reports %d %a %N.",
	"Next, %v %i and add a %n for the %a %n.",
	"The %n should %v when the %n is %a, not %a.",
	"%V %i so it can %v the %n without a %n.",
	"That %n is %a because %i reads the %n twice.",
	"After the %n change, %i needs to %v the %n.",
	"Both %i and %i %v the same %n.",
	"The %a %n shows up only with the %a %n.",
}

var promptTemplates = []string{
	"Can you %v the %a %n in %p?",
	"Why does %i %v the %n?",
	"Please %v %i and make %t pass.",
	"%t is failing again, can you look at %i?",
	"Let's %v the %n in %p.",
	"The %n in %i is %a, please %v it.",
	"Add a %n for the %a %n in %i.",
	"Refactor %p: %v the %n and the %n.",
}

// identParts are the building blocks of code identifiers.
var identParts = strings.Fields(`
user session event index cache store query token request response handler
config buffer reader writer parser record batch shard segment commit ref
object blob tree hash digest key value entry item list set queue worker
pool client server conn stream chunk frame offset cursor page limit
timeout retry backoff error status state result source target path file
dir root home workspace project provider model message tool call output
command shell exit code line column span range diff patch hunk blame note
thread context snapshot generation manifest schema field row table term
score rank filter match search lookup lock mutex signal daemon hook plugin
metric counter gauge trace logger level name label tag version build
release job task step stage pipeline runner executor scheduler timer clock
tick deadline budget quota rate limiter auth secret cert policy role scope
account tenant team member invite notify webhook payload envelope header
body codec frontier watermark checkpoint journal ledger invoice order cart
price currency report export import sync mirror replica lease election
vote peer node cluster region zone bucket prefix suffix window cache
`)

// identVerbs lead camelCase function names.
var identVerbs = strings.Fields(`
get set new load save open close read write parse format build make run
start stop apply merge split find list add remove delete update create
validate normalize resolve flush sync encode decode marshal handle process
compute collect scan walk visit emit render fetch send recv check ensure
init reset clear copy clone compare match sort filter append insert
`)

// workspaceNames are the projects under /home/dev/src.
var workspaceNames = []string{
	"ledger", "billing-svc", "api-gateway", "search-indexer", "infra-tools",
	"webapp", "mobile-sync", "data-pipeline", "auth-service", "notifier",
	"metrics-agent", "docs-site", "cli-toolkit", "payments", "scheduler",
	"inventory", "feature-flags", "chat-backend", "image-resizer", "ml-features",
}

// goDirs, pyDirs and tsDirs are directory stems for file paths.
var goDirs = strings.Fields(`internal/store internal/index internal/query
internal/config internal/server internal/auth internal/worker internal/cache
internal/model internal/sync pkg/client pkg/codec pkg/api cmd/server cmd/cli
internal/storage internal/http internal/jobs internal/metrics internal/ledger`)

var pyDirs = strings.Fields(`src/app src/app/models src/app/api src/app/services
src/app/utils src/app/jobs tests tests/unit tests/integration scripts`)

var tsDirs = strings.Fields(`src/components src/lib src/hooks src/pages
src/api src/store src/utils tests e2e src/styles`)

// miscFiles appear in every workspace.
var miscFiles = []string{"README.md", "Makefile", ".github/workflows/ci.yml",
	"docs/architecture.md", "docker-compose.yml", ".gitignore", "CHANGELOG.md"}

var branchStems = strings.Fields(`fix feat chore refactor perf test`)

var activeForms = strings.Fields(`Fixing Updating Adding Running Checking
Refactoring Writing Removing Renaming Verifying`)

var slugWords = strings.Fields(`mighty quiet amber brave calm dancing eager
fuzzy gentle happy jolly knitting lively merry nimble proud rapid shiny
sunbeam thunder velvet whistling zesty cobalt harbor meadow orbit pebble`)

// mcpTools are (server, tool) pairs for mcp__<server>__<tool> calls.
var mcpTools = [][2]string{
	{"github", "get_issue"}, {"github", "list_pull_requests"},
	{"postgres", "query"}, {"docs", "search_docs"},
	{"sentry", "get_issue_events"}, {"filesystem", "read_text_file"},
}
