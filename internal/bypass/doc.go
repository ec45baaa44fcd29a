// Package bypass holds every place where the provider replaces behaviour
// of terraform-plugin-framework, terraform-plugin-go or gRPC with its own,
// for a figure the library's way cannot reach. Each bypass relies on the
// library behaving as it did when last checked, so each has equivalence
// tests (TestEquivalence*) that compare it with the behaviour it replaces.
//
// When terraform-plugin-framework, terraform-plugin-framework-validators,
// terraform-plugin-go, terraform-plugin-log, google.golang.org/grpc,
// google.golang.org/protobuf or go-plugin is upgraded, run make
// bypass-check (every TestEquivalence test of internal/bypass,
// internal/provider and internal/tfmsgpack), then update the versions "Checked with" below:
// TestBypassTable fails while they differ from go.mod, while an
// equivalence test is missing from the table, and while the table names a
// test that does not exist. A bypass that no longer buys its figure
// (rerun the benchmarks it names) should go.
//
// Each bypass below says what it replaces, why (what it buys, measured by
// make bench, whose figures are in docs/contributing/benchmarks.md, or by the benchmarks
// it names, run on 2 shared cores; BenchmarkPlanInState, in the provider,
// is what a plan asks of the provider per resource in state), its
// equivalence tests, and the library versions it was last checked with.
//
// # 1. The protocol server
//
// In server.go: NewProtocol6Server, Server.
//
//   - Replaces: the framework's protocol 6 server
//     (providerserver.NewProtocol6WithError), which it wraps:
//     ReadDataSource, ConfigureProvider, PlanResourceChange, ReadResource,
//     UpgradeResourceState and StopProvider are its own, for bypasses 2,
//     5, 8 and 9; every other
//     RPC, and every optional RPC group
//     (list resources, actions, state stores), is the framework's.
//   - Why: what bypasses 2, 5, 8 and 9 buy.
//   - Tests: TestEquivalenceServerExposesEveryFrameworkMethod (the wrapper
//     hides no method of the framework's server).
//   - Checked with: terraform-plugin-framework v1.19.0,
//     terraform-plugin-go v0.31.0.
//
// # 2. The plans of unchanged objects
//
// In unchanged_plan.go: PlanUnchanged, PlannerOf, UnchangedPlanners,
// OfferConfigured.
//
//   - Replaces: the framework's PlanResourceChange of an object in state
//     that the configuration leaves as it is (the proposed new state is
//     the prior state, fully known): its walks of the value for defaults,
//     write-only attributes and every attribute's plan modifiers, and its
//     call of the resource's ModifyPlan, which the resource's
//     PlanUnchanged stands for. The server answers the prior state,
//     private data and identity itself only for resources with no
//     default, no write-only attribute and no plan modifier outside an
//     allowlist (harmlessPlanModifiers, in the provider's tests), and
//     never when Terraform allows the configuration or the plan to defer.
//   - Why: BenchmarkPlanInState without it allocates 1.8 to 2.8 times as
//     much per resource in state (crypto withdrawal 22,333 allocations
//     against 9,514, fiat deposit instructions 38,010 against 13,567, fiat
//     account 58,301 against 32,182) and takes up to 3 times as long
//     (fiat deposit instructions 10.2 ms against 3.4 ms, fiat account
//     13.2 ms against 8.8 ms). With it, make bench's figure 7 plans each
//     resource for less CPU than the framework's floor of its size.
//   - Tests: TestEquivalenceUnchangedPlan (both servers answer the same
//     for unchanged, changed, deprecated and refused objects, with and
//     without identity), TestEquivalenceUnchangedPlanners (the planners,
//     and the allowlist against their schemas),
//     TestEquivalenceUnchangedPlanUnderDeferral (a provider that defers
//     gets the framework's deferred plans).
//   - Checked with: terraform-plugin-framework v1.19.0,
//     terraform-plugin-go v0.31.0.
//
// # 3. The state codec
//
// In grpc_codec.go: stateCodec (registered by TuneRuntime).
//
//   - Replaces: gRPC's proto codec (encoding/proto), process-wide, for a
//     response whose state is 1 MiB or more: the response is encoded
//     without its state's bytes, which go out from the provider's own
//     buffer (a field's place in an encoding is free).
//   - Why: the process holds a large state once, not twice, while gRPC
//     sends it: 100,000 fiat accounts are 68 MB of state.
//     BenchmarkStateCodec encodes a response of a 64 MiB state in a few
//     µs, 10 bytes copied, against 19 to 46 ms and a 64 MiB copy by gRPC's
//     codec.
//   - Tests: TestEquivalenceStateCodec (the same message, the state's
//     bytes sent from their own buffer; every other message is encoded by
//     gRPC's codec).
//   - Checked with: google.golang.org/grpc v1.85.0,
//     google.golang.org/protobuf v1.36.12.
//
// # 4. The runtime of the provider process
//
// In runtime.go: TuneRuntime, LimitMemoryForLists, DefaultMemoryLimit,
// ProviderLogsOff, collectLessOften.
//
//   - Replaces: the logs of terraform-plugin-go and the framework, which
//     log every RPC at TRACE and write each line to Terraform as JSON,
//     which Terraform throws away without TF_LOG or TF_LOG_PROVIDER: with
//     no log variable set they are off (TF_LOG_SDK and
//     TF_LOG_PROVIDER_PLATFORM=off), and the provider's API client then
//     builds no log entry (ProviderLogsOff). And the Go collector's
//     default pacing: a target of 400 (not 100) unless GOGC sets one, and
//     in a process that reads a list a soft memory limit of 32 MiB from
//     its first list read on, unless GOMEMLIMIT sets one.
//   - Why: the logs were about half the CPU of the provider and of
//     Terraform together for a plan of many resources (make bench, figure
//     7). Measured again on platform_deposit_address (figure 7, plans of
//     200 and 1,000 in state): the provider's CPU per resource is 3.2 to
//     3.3 ms with the logs off, 6.3 to 6.4 ms with them on; the provider's
//     and Terraform's together 7.7 to 8.8 ms against 13 to 14 ms. Under
//     the memory limit, 100,000 items of any list are read in about
//     100 MiB (make bench, figure 5: 65 to 105 MiB of peak RSS, against
//     87 to 119 MiB with GOMEMLIMIT=off). A plan allocates hundreds of
//     MiB and holds a few: at the target of 400, figure 7's plan of 200
//     crypto withdrawals takes 3.8 ms of the provider's CPU per resource
//     against 4.7 ms at 100, and the plan 0.47 times its floor's CPU
//     against 0.52.
//   - Tests: TestEquivalenceQuietUnrequestedLogs (the logs are off only
//     when no variable asks for them), TestEquivalenceMemoryLimitForLists,
//     TestEquivalenceCollectLessOften.
//   - Checked with: terraform-plugin-go v0.31.0,
//     terraform-plugin-framework v1.19.0, terraform-plugin-log v0.11.0.
//
// # 5. The list state
//
// In list_read.go: ReadList; the state is written by internal/tfmsgpack.
//
//   - Replaces: the framework's state of a list data source (framework
//     values set into resp.State, which the framework converts to tftypes,
//     copies and compares, and terraform-plugin-go encodes): ReadList
//     writes the state in MessagePack, the protocol's encoding, one item
//     at a time while it pages, and the Server sends those bytes as the
//     response's state (a plain framework server gets them decoded into
//     resp.State: the same state, with more memory).
//   - Why: the framework's way holds several kilobytes per item, several
//     times over, which reaches gigabytes for 100,000 items; ReadList
//     reads 100,000 fiat accounts with a peak heap of 86 MB and a peak RSS
//     of 104 MB (make bench, figure 1), and 100,000 items of any list
//     within 150 MiB (figure 5).
//   - Tests: TestEquivalenceListStateStreamed (the state sent is exactly
//     the framework's, for every list data source),
//     TestEquivalenceListStatePinned (10,000-item states, byte for byte),
//     TestEquivalenceWriterMatchesTerraformPluginGo and
//     TestEquivalenceWriterLengthForms (internal/tfmsgpack: the bytes and
//     the length forms of terraform-plugin-go's encoding).
//   - Checked with: terraform-plugin-framework v1.19.0,
//     terraform-plugin-go v0.31.0.
//
// # 6. The arguments of a resource
//
// In arguments.go: ArgumentNames, ArgsFromAttributes, ArgsToAttributes.
//
//   - Replaces: the framework's reflection (types.Object As,
//     NewObjectValueFrom) for the arguments of a resource's state, plan or
//     configuration, a struct with tfsdk tags whose every field is an
//     attr.Value: a copy of each field, with the same validation and the
//     same diagnostics.
//   - Why: the reflection parses every tag again and compiles a regular
//     expression per field at each conversion, and a plan converts every
//     resource's state several times. BenchmarkShapedArguments reads and
//     writes a withdrawal's arguments in 13 to 19 µs and 87 allocations,
//     against 207 to 352 µs and 1,722 by the framework;
//     BenchmarkPlanInState without it allocates 6 to 26% more per
//     resource on shapedState (crypto withdrawal 12,011 allocations
//     against 9,514, deposit address 5,728 against 4,543).
//   - Tests: TestEquivalenceShapedArguments (every resource on
//     shapedState, read and written both ways).
//   - Checked with: terraform-plugin-framework v1.19.0.
//
// # 7. Exactly one of the siblings
//
// In siblings.go: ExactlyOneOfSiblings, ExactlyOneOfRoot.
//
//   - Replaces: objectvalidator.ExactlyOneOf of relative paths to the
//     siblings of the validated attribute (the fiat account's owner and
//     networks): the same check, description and diagnostics, from the
//     parent object read once; and stringvalidator.ExactlyOneOf of
//     attributes at the root (a withdrawal's amount and total), from each
//     attribute read at its path.
//   - Why: ExactlyOneOf matches each expression against the whole
//     configuration: the six networks of a fiat account walked it 30
//     times per validation. BenchmarkExactlyOneOfSiblings validates a
//     fiat account's owner and networks in 1.5 to 1.7 ms, 6,704
//     allocations and 0.54 MB, against 4.4 to 5.9 ms, 22,162 allocations
//     and 2.4 MB by ExactlyOneOf; BenchmarkPlanInState of a fiat account
//     without it allocates 50,307 times against 32,182 and takes 13.0 ms
//     against 8.8 ms. Matching a withdrawal's amount and total against its
//     whole configuration was 40% of its ValidateResourceConfig in
//     BenchmarkPlanInState.
//   - Tests: TestEquivalenceExactlyOneOfSiblings (on the fiat account's
//     schema: none, one, two and unknown siblings),
//     TestEquivalenceExactlyOneOfRoot (on both withdrawals' amount and
//     total: none, one, both and unknown).
//   - Checked with: terraform-plugin-framework-validators v0.19.0,
//     terraform-plugin-framework v1.19.0.
//
// # 8. The refresh of an object in state
//
// In read_resource.go: Server.ReadResource, for the resources of
// PlannerOf.
//
//   - Replaces: the framework's ReadResource of an object of a resource
//     that plans its unchanged objects itself, whose schema has no block,
//     no write-only attribute and only the framework's own types but for
//     string attributes at its root: its four walks of the value (empty
//     collection blocks to null at decoding, semantic equality, write-only
//     attributes, null collection blocks to empty at encoding), each step
//     of which copies the schema's map of attributes. The server decodes
//     the state with the schema's type read once, configures and reads the
//     resource, checks its identity, applies the semantic equality of the
//     string attributes at the root from the two values, and encodes the
//     state, identity, private data and diagnostics, all as the framework
//     does; StopProvider cancels its reads as the framework cancels its
//     RPCs. Private data of the framework's own (an import's), private
//     data that is not well formed, a provider not configured or that may
//     defer, and every other resource go through the framework.
//   - Why: the walks were about half the CPU of a refresh: in
//     BenchmarkPlanInState of a crypto withdrawal, ReadResource took
//     1.35 to 2.0 ms per resource through the framework and 0.56 ms
//     through the server, of which the resource's own read (the request
//     to the service included) is most; make bench's figure 7 measures
//     the plan of 200 withdrawals against the floor.
//   - Tests: TestEquivalenceReadResource (both servers answer the same
//     state, bytes included, private data, identity and diagnostics for an
//     object read with and without identity and private data, with a time
//     written otherwise than the service's answer, with another identity,
//     unknown to the service, whose create's outcome is unknown, and with
//     the framework's private data).
//   - Checked with: terraform-plugin-framework v1.19.0,
//     terraform-plugin-go v0.31.0.
//
// # 9. The upgrade of a state stored at the schema's version
//
// In upgrade_state.go: Server.UpgradeResourceState, for the resources of
// bypass 8.
//
//   - Replaces: the framework's pass-through of a state stored as JSON at
//     the schema's version (UpgradeResourceState): tftypes' decoding of
//     the JSON into a value (each nested value decoded again at every
//     level), the schema's type computed anew, and the value's encoding in
//     MessagePack. The server transcodes the JSON into MessagePack with the
//     schema's type read once: every attribute of the type, those the JSON
//     lacks as null, those the type lacks left out, strings decoded as
//     encoding/json decodes them, numbers as tftypes encodes them. Another
//     version, a flatmap state, a value of another JSON kind than its
//     type's, JSON that is not well formed and every other resource go
//     through the framework.
//   - Why: Terraform upgrades every object in state before it refreshes
//     it, at every plan. BenchmarkUpgradeResourceState, in the provider,
//     upgrades a crypto withdrawal in 0.16 ms and 118 allocations against
//     1.1 ms and 2,513 through the framework, a fiat account in 0.06 ms
//     against 2.0 ms; make bench's figure 7 measures the plan of 200
//     withdrawals against the floor.
//   - Tests: TestEquivalenceUpgradeResourceState (both servers answer the
//     same for the state of every such resource stored compact and
//     indented, with an attribute removed from or added to the schema,
//     with escapes, for the states of testdata/upgrade, and for what goes
//     to the framework), TestEquivalenceTranscodeState (the transcoder
//     against tftypes on every kind of type, number and escape, and what
//     it leaves to the framework; FuzzTranscodeState fuzzes it).
//   - Checked with: terraform-plugin-framework v1.19.0,
//     terraform-plugin-go v0.31.0.//
//
// # 10. The plugin handshake
//
// In handshake.go: Serve (main.go serves the provider with it).
//
//   - Replaces: tf6server.Serve, when the client asks for go-plugin's
//     automatic mutual TLS (PLUGIN_CLIENT_CERT), as Terraform and OpenTofu
//     do: the server is go-plugin's (plugin.Serve, with tf6server's plugin,
//     handshake and message sizes), given a TLS configuration of a P-256
//     certificate that trusts only the client's certificate, and the
//     handshake line it prints goes out with that certificate in its
//     sixth field, where the client reads it. go-plugin's own way
//     generates a P-521 key in every provider process and signs with it.
//     Under a debugger, and for a client without automatic TLS, it is
//     tf6server.Serve.
//   - Why: Terraform starts the provider process several times for every
//     command. The P-521 key and its signature were about a fifth of the
//     CPU a provider process spends outside the kernel for an empty plan;
//     with the P-256 certificate an empty plan costs about 20 ms less CPU
//     (0.26 s against 0.28 s, 20 plans each) and 12 to 15 ms less time
//     (make bench, figure 4).
//   - Tests: TestEquivalenceHandshake (the provider served both ways: the
//     same handshake line but for its address and certificate, both
//     certificates for localhost, both servers answer go-plugin's client
//     and end when it ends them, with and without multiplexing and
//     without TLS), TestServeHandshakeLine (only the client whose
//     certificate came is served; the controller ends the process with
//     status 0).
//   - Checked with: terraform-plugin-go v0.31.0, go-plugin v1.7.0.
package bypass
