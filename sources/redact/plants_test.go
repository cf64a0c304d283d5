package redact

import "encoding/base64"

// plant is a secret planted in realistic text: the expected output is
// pre + "[REDACTED:<id>]" + post.
type plant struct {
	id, pre, secret, post string
}

// plants returns several true positives for every rule, built from the
// public token formats with a seeded generator.
func plants(f *fake) []plant {
	var ps []plant
	for _, g := range []func(*fake) []plant{cloudPlants, vcsPlants, aiPlants, saasPlants, structPlants, assignPlants} {
		ps = append(ps, g(f)...)
	}
	return ps
}

func cloudPlants(f *fake) []plant {
	akia, asia := f.awsKeyID("AKIA"), f.awsKeyID("ASIA")
	azure := f.b64(64)
	return []plant{
		{"aws-access-key-id", "$ aws configure set aws_access_key_id ", akia, "\n$ aws sts get-caller-identity\n"},
		{"aws-access-key-id", `{"Credentials": {"AccessKeyId": "`, asia, `", "Expiration": "2025-01-01T00:00:00Z"}}`},
		{"aws-access-key-id", "export AWS_ACCESS_KEY_ID=", akia, "\nexport AWS_REGION=eu-west-1"},
		{"aws-access-key-id", "InvalidClientTokenId: the security token included in the request is invalid (key ", f.awsKeyID("AKIA"), ", region us-east-1)"},
		{"aws-secret-key", "[default]\naws_access_key_id = AKIA…\naws_secret_access_key = ", f.awsSecret(), "\nregion = us-east-1\n"},
		{"aws-secret-key", "export AWS_SECRET_ACCESS_KEY=", f.awsSecret(), " && terraform plan"},
		{"aws-secret-key", `        "SecretAccessKey": "`, f.awsSecret(), `",` + "\n        \"Expiration\": \"2025-01-01T00:00:00Z\""},
		{"google-api-key", "curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=", f.googleKey(), "&language=fr'"},
		{"google-api-key", "GOOGLE_API_KEY=", f.googleKey(), "\nGOOGLE_CLOUD_PROJECT=demo-project"},
		{"google-api-key", `const firebaseConfig = { apiKey: "`, f.googleKey(), `", authDomain: "demo.firebaseapp.com" };`},
		{"google-oauth-secret", `{"installed":{"client_id":"1234-abc.apps.googleusercontent.com","client_secret":"`, "GOCSPX-" + f.mixed(b64urls, 28), `","redirect_uris":["http://localhost"]}}`},
		{"google-oauth-secret", "GOOGLE_CLIENT_SECRET=", "GOCSPX-" + f.mixed(b64urls, 28), "\n"},
		{"google-oauth-secret", "gcloud auth application-default login --client-id-file=client.json # secret ", "GOCSPX-" + f.mixed(b64urls, 28), " rotated"},
		{"google-oauth-token", `curl -H "Authorization: Bearer `, "ya29." + f.mixed(b64urls, 120), `" https://www.googleapis.com/drive/v3/files`},
		{"google-oauth-token", `{"access_token": "`, "ya29." + f.mixed(b64urls, 150), `", "expires_in": 3599, "token_type": "Bearer"}`},
		{"google-oauth-token", "$ gcloud auth print-access-token\n", "ya29." + f.mixed(b64urls, 140), "\n$ "},
		{"azure-storage-key", "DefaultEndpointsProtocol=https;AccountName=demo;AccountKey=", azure, ";EndpointSuffix=core.windows.net"},
		{"azure-storage-key", `"AzureWebJobsStorage": "DefaultEndpointsProtocol=https;AccountName=fn;AccountKey=`, f.b64(64), `"`},
		{"azure-storage-key", "Endpoint=sb://demo.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=", f.b64(32), "\n"},
		{"digitalocean-token", "doctl auth init --access-token ", "dop_v1_" + f.str(hexes, 64), "\n"},
		{"digitalocean-token", "DIGITALOCEAN_TOKEN=", "dop_v1_" + f.str(hexes, 64), ""},
		{"digitalocean-token", "provider \"digitalocean\" {\n  token = \"", "dor_v1_" + f.str(hexes, 64), "\"\n}"},
		{"heroku-api-key", "HEROKU_API_KEY=", "HRKU-AA" + f.mixed(b64urls, 58), " heroku apps"},
		{"heroku-api-key", "$ heroku authorizations:create\nToken:       ", "HRKU-AA" + f.mixed(b64urls, 58), "\n"},
		{"heroku-api-key", `const HEROKU_KEY = "`, f.uuid(), `";`},
	}
}

func vcsPlants(f *fake) []plant {
	return []plant{
		{"github-token", "git clone https://x-access-token:", f.ghToken("ghs_"), "@github.com/acme/app.git"},
		{"github-token", "export GITHUB_TOKEN=", f.ghToken("ghp_"), "\ngh auth status"},
		{"github-token", `curl -H "Authorization: token `, f.ghToken("gho_"), `" https://api.github.com/user`},
		{"github-token", "GH_TOKEN=", f.ghFineGrained(), " gh pr list --state open"},
		{"github-token", "refresh_token=", f.ghToken("ghr_") + f.mixed(alnums, 40), "&grant_type=refresh_token"},
		{"github-token", "Using token ", f.ghToken("ghu_"), " for installation 4242"},
		{"gitlab-token", "git remote set-url origin https://oauth2:", "glpat-" + f.mixed(b64urls, 20), "@gitlab.com/group/project.git"},
		{"gitlab-token", `curl --header "PRIVATE-TOKEN: `, "glpat-" + f.mixed(b64urls, 20), `" "https://gitlab.com/api/v4/projects"`},
		{"gitlab-token", "gitlab-runner register --token ", "glrt-" + f.mixed(b64urls, 20), " --url https://gitlab.com"},
		{"npm-token", "//registry.npmjs.org/:_authToken=", "npm_" + f.mixed(alnums, 36), "\n"},
		{"npm-token", "NPM_TOKEN=", "npm_" + f.mixed(alnums, 36), " npm publish"},
		{"npm-token", "npm notice using token ", "npm_" + f.mixed(alnums, 36), "."},
		{"pypi-token", "twine upload -u __token__ -p ", "pypi-AgEIcHlwaS5vcmc" + f.mixed(b64urls, 70), " dist/*"},
		{"pypi-token", "[pypi]\n  username = __token__\n  password = ", "pypi-AgEIcHlwaS5vcmc" + f.mixed(b64urls, 70), "\n"},
		{"pypi-token", "UV_PUBLISH_TOKEN=", "pypi-AgENdGVzdC5weXBpLm9yZw" + f.mixed(b64urls, 70), ""},
	}
}

func aiPlants(f *fake) []plant {
	return []plant{
		{"openai-key", "OPENAI_API_KEY=", f.openAI(), "\n"},
		{"openai-key", `openai.api_key = "`, f.openAI(), `"`},
		{"openai-key", "Error: Incorrect API key provided: ", f.openAI(), ". You can find your API key at https://platform.openai.com/account/api-keys."},
		{"openai-key", "client = OpenAI(api_key='", "sk-svcacct-" + f.mixed(b64urls, 60), "')"},
		{"anthropic-key", "export ANTHROPIC_API_KEY=", f.anthropic(), "\nclaude --help"},
		{"anthropic-key", `client = anthropic.Anthropic(api_key="`, f.anthropic(), `")`},
		{"anthropic-key", `curl https://api.anthropic.com/v1/messages -H "x-api-key: `, f.anthropic(), `" -H "anthropic-version: 2023-06-01"`},
		{"huggingface-token", "huggingface-cli login --token ", "hf_" + f.mixed(letterCs, 34), "\n"},
		{"huggingface-token", "HF_TOKEN=", "hf_" + f.mixed(letterCs, 34), " python train.py"},
		{"huggingface-token", `login(token="`, "hf_" + f.mixed(letterCs, 34), `")`},
	}
}

func saasPlants(f *fake) []plant {
	return []plant{
		{"slack-token", "SLACK_BOT_TOKEN=", f.slack("xoxb-"), "\n"},
		{"slack-token", `client = WebClient(token="`, f.slack("xoxp-"), `")`},
		{"slack-token", "2024-05-01T10:00:00Z posting with ", f.slack("xoxb-"), " to #general"},
		{"slack-webhook", `curl -X POST -d '{"text":"deploy done"}' https://hooks.slack.com/services/`, f.slackHook(), "\n"},
		{"slack-webhook", "SLACK_WEBHOOK_URL=https://hooks.slack.com/services/", f.slackHook(), ""},
		{"slack-webhook", `  "webhook": "https://hooks.slack.com/services/`, f.slackHook(), `",`},
		{"stripe-key", `stripe.api_key = "`, "sk_live_" + f.mixed(alnums, 24), `"`},
		{"stripe-key", "curl https://api.stripe.com/v1/charges -u ", "sk_test_" + f.mixed(alnums, 99), ": -d amount=2000"},
		{"stripe-key", "STRIPE_SECRET_KEY=", "rk_live_" + f.mixed(alnums, 24), "\n"},
		{"stripe-key", "stripe listen: Ready! Your webhook signing secret is ", "whsec_" + f.mixed(alnums, 32), " (^C to quit)"},
		{"twilio-api-key", `client = Client("`, "SK" + f.str(hexes, 32), `", api_secret, account_sid)`},
		{"twilio-api-key", "TWILIO_API_KEY=", "SK" + f.str(hexes, 32), "\n"},
		{"twilio-api-key", "SID                                 Friendly Name\n", "SK" + f.str(hexes, 32), "  deploy-bot\n"},
		{"sendgrid-key", "SENDGRID_API_KEY=", f.sendgrid(), "\n"},
		{"sendgrid-key", `sg = SendGridAPIClient("`, f.sendgrid(), `")`},
		{"sendgrid-key", "Authorization: Bearer ", f.sendgrid(), "\r\nContent-Type: application/json"},
		{"mailgun-key", "curl -s --user 'api:", "key-" + f.str(hexes, 32), "' https://api.mailgun.net/v3/mg.example.org/messages"},
		{"mailgun-key", "MAILGUN_API_KEY=", "key-" + f.str(hexes, 32), ""},
		{"mailgun-key", "mailgun.client({username: 'api', key: '", "key-" + f.str(hexes, 32), "'})"},
		{"discord-bot-token", `client.run("`, f.discord(), `")`},
		{"discord-bot-token", "DISCORD_TOKEN=", f.discord(), "\n"},
		{"discord-bot-token", "Authorization: Bot ", f.discord(), "\n"},
	}
}

func structPlants(f *fake) []plant {
	basic := base64.StdEncoding.EncodeToString([]byte("deploy:" + f.password()))
	return []plant{
		{"private-key", "$ cat ~/.ssh/id_rsa\n", f.pem("RSA PRIVATE KEY", "\n", 20), "\n$ ssh-add ~/.ssh/id_rsa"},
		{"private-key", `{"type": "service_account", "private_key": "`, f.pem("PRIVATE KEY", `\n`, 25), `\n", "client_email": "bot@demo.iam.gserviceaccount.com"}`},
		{"private-key", "key := []byte(`", f.pem("OPENSSH PRIVATE KEY", "\n", 6), "`)"},
		{"private-key", "$ head -4 server.key\n", "-----BEGIN EC PRIVATE KEY-----\n" + f.b64(48) + "\n" + f.b64(48), "\n$ "},
		{"private-key", "", f.pem("PGP PRIVATE KEY BLOCK", "\n", 8), "\n"},
		{"jwt", "Authorization: Bearer ", f.jwt(), "\n"},
		{"jwt", `{"id_token": "`, f.jwt(), `"}`},
		{"jwt", "Set-Cookie: session=", f.jwt(), "; Path=/; HttpOnly"},
		{"url-password", "psql postgres://app:", f.password(), "@db.internal:5432/app -c 'select 1'"},
		{"url-password", `DATABASE_URL="mysql://root:`, f.password(), `@127.0.0.1:3306/shop"`},
		{"url-password", "redis-cli -u redis://:", f.password(), "@cache:6379/0 ping"},
		{"url-password", "git push https://deploy:", f.password(), "@git.example.org/team/repo.git main"},
		{"url-password", "amqp://guest:", f.password(), "@rabbit//"},
		{"auth-header", `curl -H "Authorization: Basic `, basic, `" https://api.example.com/v1/me`},
		{"auth-header", "GET /v1/items HTTP/1.1\r\nAuthorization: Bearer ", f.mixed(alnums, 40), "\r\nAccept: */*"},
		{"auth-header", `headers = {"Authorization": "Bearer `, f.mixed(alnums, 32), `"}`},
		{"auth-header", "DEBUG outgoing headers: bearer ", f.mixed(b64urls, 48), " accept=json"},
		{"auth-header", `req.Header.Set("Authorization", "`, f.mixed(alnums, 32), `")`},
	}
}

func assignPlants(f *fake) []plant {
	return []plant{
		{"secret-assignment", "DB_PASSWORD=", f.password(), "\nDB_HOST=localhost"},
		{"secret-assignment", `{"client_id": "web", "client_secret": "`, f.mixed(b64urls, 24), `"}`},
		{"secret-assignment", "export API_TOKEN='", f.mixed(alnums, 32), "'"},
		{"secret-assignment", "database:\n  user: app\n  password: ", f.password(), "\n  host: db"},
		{"secret-assignment", "SECRET_KEY = '", "django-insecure-" + f.mixed(pwChars, 40), "'"},
		{"secret-assignment", "mysql --password=", f.password(), " -h db -u root"},
		{"secret-assignment", "PGPASSWORD=", f.password(), " psql -h localhost -U app"},
		{"secret-assignment", "spring.datasource.password=", f.password(), "\n"},
		{"secret-assignment", `  "apiKey": "`, f.mixed(alnums, 32), `",`},
		{"secret-assignment", "docker run -e POSTGRES_PASSWORD=", "hunterhunter", " postgres:16"},
		{"secret-assignment", `{\"password\": \"`, f.password(), `\"}`},
		{"secret-assignment", "$settings['hash_salt'] = 'x'; $db_pass = \"", f.password(), "\";"},
		{"secret-assignment", "X-Api-Key: ", f.mixed(alnums, 32), "\r\n"},
		{"secret-assignment", "vault login -method=userpass username=ci password=", f.password(), ""},
		{"secret-assignment", "openssl enc -aes-256-cbc --passphrase ", f.password(), " -in a.tar"},
		{"secret-assignment", "https://app.example.org/callback?state=xyz&access_token=", f.mixed(b64urls, 40), "&expires_in=3600"},
		{"secret-assignment", "password := \"", f.password(), "\" // TODO: move to env"},
	}
}
