// Package bypass holds every place where the provider replaces behaviour
// of terraform-plugin-framework, terraform-plugin-go or gRPC with its own,
// for a figure the library's way cannot reach.
package bypass
