package redact

import "strings"

// builtin returns the rule table in priority order: private keys and vendor
// token formats first, then the structural rules, then the generic
// assignment rule. When matches overlap, the earliest wins and ties go to
// the earlier rule.
func builtin() []rule {
	var rs []rule
	for _, group := range [][]rule{devRules(), cloudRules(), serviceRules(), structuralRules()} {
		rs = append(rs, group...)
	}
	return rs
}

// devRules: private keys, code hosting, package registries, AI providers.
func devRules() []rule {
	return []rule{
		{Rule: Rule{ID: "private-key", Description: "PEM private key block (RSA, EC, DSA, OpenSSH, PKCS#8, encrypted, PGP), BEGIN line to END line",
			Pattern: `-----BEGIN [A-Z0-9 ]*PRIVATE KEY( BLOCK)?-----[A-Za-z0-9+/=\s\\:,-]{32,}(-----END [A-Z0-9 ]+-----)?`},
			variants: []variant{{anchors: anyOf("-----BEGIN"), match: matchPEM}}},
		tokenRule("github-token", "GitHub token: personal (ghp_), OAuth (gho_), user-to-server (ghu_), server (ghs_), refresh (ghr_), fine-grained (github_pat_)",
			tv(anyOf("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), run(alnum, 36, 255)),
			tv(anyOf("github_pat_"), run(word, 70, 255))),
		tokenRule("gitlab-token", "GitLab personal, project, runner, deploy or trigger token",
			tv(anyOf("glpat-", "glptt-", "glrt-", "gldt-", "glcbt-"), atLeast(b64url, 20))),
		tokenRule("npm-token", "npm access token",
			tv(anyOf("npm_"), exactly(alnum, 36)).bounded()),
		tokenRule("pypi-token", "PyPI or TestPyPI upload token",
			tv(anyOf("pypi-AgE"), atLeast(b64url, 50))),
		tokenRule("anthropic-key", "Anthropic API or admin key",
			tv(anyOf("sk-ant-"), atLeast(b64url, 32))),
		tokenRule("openai-key", "OpenAI API key (legacy, project, service-account, admin) and mixed-case sk- keys of compatible APIs",
			tv(anyOf("sk-"), atLeast(b64url, 32)).check(openAIShape)),
		tokenRule("huggingface-token", "Hugging Face access token",
			tv(anyOf("hf_"), run(alnum, 30, 40)).check(hasUpperLower)),
	}
}

// cloudRules: AWS, Google, Azure, DigitalOcean, Heroku.
func cloudRules() []rule {
	return []rule{
		tokenRule("aws-access-key-id", "AWS access key id (long-term AKIA, temporary ASIA; the documentation's …EXAMPLE ids are spared)",
			tv(anyOf("AKIA", "ASIA", "ABIA", "ACCA"), exactly(upperNum, 16)).bounded().check(notDocExample)),
		tokenRule("google-api-key", "Google API key",
			tv(anyOf("AIza"), exactly(b64url, 35))),
		tokenRule("google-oauth-secret", "Google OAuth client secret",
			tv(anyOf("GOCSPX-"), run(b64url, 24, 40))),
		tokenRule("google-oauth-token", "Google OAuth access token",
			tv(anyOf("ya29."), atLeast(b64url, 20)).check(hasDigit)),
		foldRule(tokenRule("azure-storage-key", "Azure storage account or Service Bus key in a connection string (the value only)",
			tv(anyOf("AccountKey=", "SharedAccessKey="), atLeast(b64std, 20)).keep())),
		tokenRule("digitalocean-token", "DigitalOcean personal, OAuth or refresh token",
			tv(anyOf("dop_v1_", "doo_v1_", "dor_v1_"), exactly(lowerHex, 64)).bounded()),
		tokenRule("heroku-api-key", "Heroku API key (HRKU- format, or a UUID assigned to a key naming heroku)",
			tv(anyOf("HRKU-"), atLeast(b64url, 30))),
	}
}

// serviceRules: messaging, payment and e-mail APIs.
func serviceRules() []rule {
	return []rule{
		tokenRule("slack-token", "Slack bot, user, app, refresh or configuration token",
			tv(anyOf("xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xoxe-", "xapp-"), atLeast(dashNum, 20)).check(hasDigit)),
		tokenRule("slack-webhook", "Slack incoming webhook or workflow trigger URL path",
			tv(anyOf("hooks.slack.com/services/", "hooks.slack.com/workflows/", "hooks.slack.com/triggers/"), atLeast(slackHk, 20)).keep()),
		tokenRule("discord-bot-token", "Discord bot token (base64 user id, timestamp, HMAC)",
			tv(anyOf("MT", "Mj", "Mz", "ND", "NT", "Nj", "Nz", "OD", "OT"),
				run(b64url, 20, 28), lit("."), run(b64url, 6, 7), lit("."), run(b64url, 27, 40))),
		tokenRule("stripe-key", "Stripe secret or restricted key (live or test) and webhook signing secret",
			tv(anyOf("sk_live_", "sk_test_", "rk_live_", "rk_test_"), atLeast(alnum, 20)),
			tv(anyOf("whsec_"), atLeast(alnum, 32))),
		tokenRule("twilio-api-key", "Twilio API key SID",
			tv(anyOf("SK"), exactly(anyHex, 32)).bounded()),
		tokenRule("sendgrid-key", "SendGrid API key",
			tv(anyOf("SG."), exactly(b64url, 22), lit("."), exactly(b64url, 43))),
		tokenRule("mailgun-key", "Mailgun private API key",
			tv(anyOf("key-"), exactly(lowerHex, 32)).bounded()),
	}
}

// structuralRules find secrets by their surroundings: JWT structure, URL
// user information, Authorization headers and secret-named assignments.
func structuralRules() []rule {
	return []rule{
		tokenRule("jwt", "JSON Web Token (header.payload.signature)",
			tv(anyOf("eyJ"), atLeast(b64url, 8), lit(".eyJ"), atLeast(b64url, 8), lit("."), atLeast(b64url, 10))),
		{Rule: Rule{ID: "url-password", Description: "password in a URL's user information (scheme://user:password@host); the user is kept",
			Pattern: `[a-z][a-z0-9+.-]*://[^:/@\s]*:([^@/\s]+)@`},
			variants: []variant{{anchors: anyOf("://"), match: matchURL}}},
		{Rule: Rule{ID: "auth-header", Description: "credentials of an Authorization header (Bearer, Basic, token, Bot or bare) and bare Bearer tokens; the scheme is kept",
			Pattern: `(?i)authorization["']?\s*[:=,]\s*["']?((bearer|basic|token|bot)\s+)?([A-Za-z0-9._~+/=-]{8,})|\bbearer\s+([A-Za-z0-9._~+/=-]{8,})`},
			fold: true,
			variants: []variant{
				{anchors: anyOf("authorization"), match: matchAuthorization},
				{anchors: anyOf("bearer"), match: matchBearer},
			}},
		{Rule: Rule{ID: "aws-secret-key", Description: "AWS secret access key: 40 base64 characters assigned to a key naming an AWS or access secret (found by secret-assignment)",
			Pattern: `(?i)(aws|access).*secret.*[=:]\s*["']?([A-Za-z0-9/+]{40})`}},
		{Rule: Rule{ID: "secret-assignment", Description: "value assigned to a key naming a secret (KEY=value, KEY: value, \"key\": \"value\", export KEY=…, --flag value); the key is kept",
			Pattern: `(?i)[\w.-]*(secret|token|password|passwd|passphrase|api_?key|access_?key|private_?key|auth|_pass|_pwd)["']?\s*(=|:|:=|=>)\s*["']?([^\s"']{8,})`},
			fold:     true,
			variants: []variant{{anchors: anyOf("secret", "token", "pass", "pwd", "key", "auth"), match: matchAssign}}},
	}
}

func foldRule(r rule) rule { r.fold = true; return r }

// notDocExample spares the documentation key id AKIAIOSFODNN7EXAMPLE and
// its kind.
func notDocExample(tok string) bool { return !strings.HasSuffix(tok, "EXAMPLE") }

// openAIShape excludes Anthropic keys (their own rule) and kebab-case words:
// a key has digits and both cases of letters.
func openAIShape(tok string) bool {
	return notPrefixed("sk-ant-")(tok) && hasDigit(tok[3:]) && hasUpperLower(tok[3:])
}
