package provider

// Environment variables read when an argument of the provider block is not
// set in configuration. provider.go's table of settings reads them; the
// errors of the types that need a setting name them.
const (
	EnvClientID       = "PLATFORM_CLIENT_ID"
	EnvClientSecret   = "PLATFORM_CLIENT_SECRET"
	EnvBaseURL        = "PLATFORM_BASE_URL"
	EnvAuthURL        = "PLATFORM_AUTH_URL"
	EnvWSURL          = "PLATFORM_WS_URL"
	EnvScopes         = "PLATFORM_SCOPES"
	EnvRequestTimeout = "PLATFORM_REQUEST_TIMEOUT"
	EnvMaxRetries     = "PLATFORM_MAX_RETRIES"
	EnvRecoveryWindow = "PLATFORM_RECOVERY_WINDOW"
)
