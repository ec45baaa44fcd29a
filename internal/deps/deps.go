//go:build deps

// Package deps pins modules that packages under construction import.
package deps

import (
	_ "github.com/google/uuid"
	_ "github.com/gorilla/websocket"
	_ "github.com/hashicorp/go-cleanhttp"
	_ "github.com/hashicorp/go-retryablehttp"
	_ "github.com/hashicorp/terraform-plugin-framework-jsontypes/jsontypes"
	_ "github.com/hashicorp/terraform-plugin-framework-timetypes/timetypes"
	_ "github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	_ "github.com/hashicorp/terraform-plugin-framework/provider"
	_ "github.com/hashicorp/terraform-plugin-go/tfprotov6"
	_ "github.com/hashicorp/terraform-plugin-log/tflog"
	_ "github.com/hashicorp/terraform-plugin-testing/helper/resource"
	_ "github.com/hashicorp/terraform-plugin-testing/tfversion"
	_ "github.com/shopspring/decimal"
	_ "go.uber.org/goleak"
	_ "golang.org/x/oauth2/clientcredentials"
)
