// Package emulator is an in-process emulator of the whole service: the
// OAuth token endpoint, the HTTP API under /v2, the WebSocket stream and an
// admin API. Tests start it with StartTest (or New and Start) on
// 127.0.0.1:0; cmd/platform-emulator runs it standalone.
//
// The emulator defines its own wire types from the spec and validates every
// request itself. Where the spec says "not shown", it makes one plausible
// choice, listed here. The provider and client must not depend on these
// choices beyond what the spec allows.
//
// # Paths and routing
//
//   - base_url is http://host/v2; every HTTP operation, including
//     GET /v2/rewards/claims, is served under /v2.
//   - The operations served are one table (Routes): each is an operation
//     of the published reference, with its scope (held against the
//     reference by TestRoutesAreOperationsOfTheReference). Under the seed
//     profile (Options.Profile, -profile seed) only the seven operations of
//     the seed's spec are served: a list of deposit instructions is a 405,
//     transfers, profiles, balances and the money flows are 404s.
//   - The sandbox operations of the reference are served:
//     POST /sandbox/profiles/{profile_id}/deposit (scope funding:read_profile)
//     credits the profile in the asset and answers {"activity_id": uuid};
//     POST /sandbox/fiat-deposits (scope transfer:write_sandbox_fiat_deposit)
//     credits the profile of the instructions whose memo_id it quotes, in
//     USD, and answers {}; an unknown memo_id is a 400. A credit sets a
//     balance that was not set (see Balances).
//   - Where the reference publishes an operation's problem of a status as
//     application/json rather than application/problem+json (fiat
//     accounts, deposit instructions, fiat withdrawals' 400 and 404,
//     stablecoin conversions), the emulator answers it so.
//   - An unknown path answers 404 with {"message": "no route matches GET
//     /v2/x"} (Content-Type application/json, whatever the error body
//     option), which is not the not-found problem of an unknown id (see
//     Errors); a known path with another method answers 405 (with an Allow
//     header) with the error body below.
//   - The order of checks is: faults, path (404), method (405), bearer token
//     (401), scope (403), request validation (400), then the operation.
//
// # Errors
//
// Every error response is an RFC 7807 problem, Content-Type
// application/problem+json, as the API reference publishes error bodies:
//
//	{"type":"https://api.platform.example/problems/invalid-argument","title":"Bad Request","status":400,
//	 "detail":"amount: must match ^[0-9]*\\.?[0-9]+$","meta":{"field":"amount"}}
//
// where the type ends in the code below in lower case with dashes, and
// meta.field is present only when one request field or query parameter is
// to blame. Options.ErrorBodyCodeMessage answers the same error as
// Content-Type application/json and
//
//	{"code":"INVALID_ARGUMENT","message":"amount: must match ^[0-9]*\\.?[0-9]+$","field":"amount"}
//
// instead. Every response, success or error, carries an X-Request-Id
// header. Codes and statuses:
//
//   - 400 INVALID_ARGUMENT: validation, malformed JSON, unknown JSON fields,
//     unknown or repeated query parameters, bad page cursors.
//   - 401 UNAUTHENTICATED: missing, unknown or expired bearer token (with
//     WWW-Authenticate: Bearer error="invalid_token").
//   - 403 PERMISSION_DENIED: the token lacks the operation's scope; the
//     message names the scope.
//   - 404 NOT_FOUND: unknown id (an unknown path answers the other 404 of
//     Paths and routing).
//   - 405 METHOD_NOT_ALLOWED, 415 UNSUPPORTED_MEDIA_TYPE (a POST whose
//     Content-Type is not application/json).
//   - 409 CONFLICT: a ref_id of deposit instructions reused with a
//     different request body (or of a withdrawal, under ReplayOriginal);
//     the message names the ref_id. A reused withdrawal ref_id answers the
//     published already-exists problem with meta.existing instead (see
//     Create operations).
//   - 429 RESOURCE_EXHAUSTED (with Retry-After), 500 INTERNAL,
//     503 UNAVAILABLE (or another 5xx status): only from the fault switches.
//
// # Clock
//
// Every answer carries a Date header by the emulator's clock (Options.Now
// plus every Advance, or POST /admin/clock/advance {"seconds": n}), which
// also dates the objects it makes, so that a test can rehearse a run a
// month after another: the provider judges the age of an object by its
// created_at against the Date of the answer that carried it.
//
// # Create operations
//
//   - The create POSTs answer 200 with the created object, as the
//     reference publishes them; under the seed profile, 201 (the spec does
//     not show the status) (deposit addresses: see below). Without ref_id every
//     POST creates a new object. ref_ids of withdrawals and of deposit
//     instructions are separate namespaces.
//   - A crypto withdrawal whose ref_id is already used answers, by default
//     (ReplayConflict), as the API reference publishes it: 409 with
//     Content-Type application/problem+json and the body
//     {"type": ".../problems/already-exists", "title": "Already Exists",
//     "status": 409, "detail": "transfer already exists with ref_id '...'",
//     "meta": {"existing": <the transfer made with that ref_id>}}, whether
//     or not the new request is the same, and creates nothing. The spec
//     says only "Client-specified id for replay protection"; its reading,
//     kept as ReplayOriginal (-withdrawal-replay=original), answers a POST
//     repeating the ref_id and the body of an earlier one (compared as
//     JSON, so key order and spacing do not matter) with 200 and the
//     original object, and the same ref_id with a different body with 409.
//     Deposit instructions always answer the ReplayOriginal way.
//   - Withdrawal fee by asset: BTC 0.0001, ETH 0.0015, SOL 0.000005,
//     USDC and PYUSD 1.5, any other asset 0.01 (see WithdrawalFee). With
//     amount, total = amount + fee; with total, amount = total - fee, and a
//     total not greater than the fee is rejected with 400. An amount of zero
//     is rejected with 400. The given amount or total is echoed as sent; the
//     computed one is the exact decimal result in shortest form.
//   - notional_value is total in USD at fixed prices (BTC 65000, ETH 3500,
//     SOL 150, LTC 80, BCH 400, POL 0.5, anything else 1), with two decimals.
//   - auto_conversion is always {}; secondary_status, status_details,
//     crypto_tx_hash, crypto_tx_index, group_id and fiat_account_id are
//     absent. beneficiary must be a JSON object and fee_id any string; both
//     are accepted and not echoed.
//   - Fiat deposit instructions: identity_id defaults to an id derived from
//     profile_id; routing_number_type defaults to ABA and is ignored for
//     networks other than WIRE. fiat_account_owner and metadata are at the
//     top level, as the reference has them; under the seed profile they
//     appear inside fiat_network_instructions too, as in the spec's
//     example. DBS_ACT, CUBIX, SCB and RTP are under the lower-case network
//     name in the reference's shapes (dbs_act and scb: account_number;
//     cubix: account_id; rtp: account_number and routing_details). A SWIFT wire
//     also names its correspondent bank in
//     wire.intermediary_routing_details.
//   - Crypto deposit addresses (POST /transfer/deposit-addresses, scope
//     transfer:write_deposit_address, published in the API reference; the
//     spec only lists them) answer 200 with the DepositAddress, as
//     published. A ref_id already used, by an address made through the API
//     or a seeded one, answers 409 with the already-exists problem ("deposit
//     address already exists with ref_id '...'") and meta.existing, the
//     whole address made with it (the published example leaves out
//     created_at, compatible_crypto_networks and conversion_target_asset;
//     the emulator sends them), whatever the new body, and creates nothing.
//     The address is generated per network: EVM networks 0x and 40 hex
//     digits, BITCOIN bc1q…, BITCOIN_CASH bitcoincash:q…, LITECOIN ltc1q…,
//     SOLANA 44 base58 characters, STELLAR G and 55 characters, DOGECOIN D
//     and 33 base58 characters, SUI 0x and 64 hex digits.
//     compatible_crypto_networks is the EVM family of the published example
//     (ETHEREUM, POLYGON_POS, BASE, ARBITRUM_ONE, INK, XLAYER) for each of
//     those networks; every other network, AVALANCHE, BNB and ROBINHOOD
//     included, is compatible with itself only (the reference is silent).
//     conversion_target_asset (NO_CONVERSION or USD) is echoed, and is
//     NO_CONVERSION when the request has none (the reference requires the
//     field in the answer). account_id is echoed, and absent when the
//     request has none. The address is listed by List Deposit Addresses
//     after the seeded ones (whose JSON alone is cached) and returned by
//     Server.DepositAddresses. There is no update and no delete.
//   - Instructions deleted through the admin API answer 404 and free their
//     ref_id. Get Stablecoin Conversion answers 400 for an id that is not a
//     UUID and 404 for an unknown one.
//   - Fiat accounts (Create, Get, Update and Delete Fiat Account, scopes
//     transfer:write_fiat_account and transfer:read_fiat_account, as
//     published; the spec has only the list). Create answers 200 with the
//     account in PENDING, after checking the published required fields:
//     exactly one of person_details (first_name, last_name) and
//     institution_details (name); exactly one network in
//     fiat_network_instructions (wire: account_number,
//     fiat_account_owner_address, routing_details with routing_number_type
//     ABA or SWIFT, routing_number, bank_name and bank_address; cbit:
//     wallet_address; dbs_act and scb: account_number; cubix: account_id;
//     rtp: account_number and routing_details.routing_number); addresses
//     with country and parts of at most 35 characters of the published
//     pattern; metadata as elsewhere. The reference publishes no replay
//     answer for this create, and the emulator gives none: a repeated
//     ref_id makes another account (a client must look the ref_id up
//     through the list's ref_ids filter before sending again). Get answers
//     the full account number and owner; a deleted account only with
//     include_deleted=true, else 404. Update changes the non-empty fields
//     it gives (the owner's names, the wire owner address, the bank name
//     and address of routing_details and intermediary_routing_details;
//     metadata keys are added or changed, never removed), refuses a change
//     of the owner's kind with 400, and returns the account in PENDING.
//     Delete answers 200 {} and marks the account deleted (404 for an
//     unknown or deleted id, 400 for an id that is not a UUID). Seeded
//     accounts are read-only: Update and Delete answer 400 for them.
//
// # Lists
//
//   - List Fiat Accounts serves the seeded accounts, then those made through
//     the API in creation order, masked as published: account numbers cut
//     to "XXXX" and their last four characters, the owner's details and
//     address left out (fiat_account_owner {"person_details": null},
//     fiat_account_owner_address null).
//   - Array filters are repeated query keys (ids=a&ids=b); comma-separated
//     values (ids=a,b) and a mix of both are accepted too. At most 100
//     values per filter; empty values are rejected.
//   - Unknown query parameters, repeated single-valued parameters and empty
//     values answer 400. Times are RFC 3339 (fractional seconds allowed).
//   - limit is 1 to 1000, default 100, for all three lists, including
//     List claims.
//   - Fiat accounts and deposit addresses are ordered by created_at, DESC
//     by default; order_by accepts CREATED_AT only. Claims are ordered by
//     created_at, newest first. created_at values are unique in the seeded
//     data.
//   - Claims: start_time and end_time (inclusive) bound created_at, and
//     start_time after end_time answers 400. chain matches the claim's
//     blockchain field exactly (values: ethereum, solana, polygon, cosmos).
//     The on-chain status is filtered by statuses, as the API reference
//     names the query key (the spec says onchain_statuses, which is
//     accepted too), and sent as onchain_status with claim_type
//     (CLAIM_ALL, CLAIM_FOR_ADDRESSES, CLAIM_UNREGISTER), which the
//     reference's claim item has and the spec's does not. asset_type (API
//     reference) matches the claim's asset exactly. The jurisdiction (US,
//     EU, SG, UK) the jurisdiction filter matches is not sent
//     (RewardClaim.Jurisdiction).
//   - Deposit addresses: items carry account_id, which account_ids
//     matches, and always conversion_target_asset (null when deposits of a
//     seeded address are not converted), as the API reference has them
//     (the spec lists neither in the item). Seeded addresses have the
//     conversion targets USD, USDC and PYUSD; the reference's create
//     accepts NO_CONVERSION and USD only.
//   - The response is {"items":[...],"next_page_cursor":"..."}, with
//     next_page_cursor "" on the last page. A cursor is opaque: base64url of
//     the list, the position, a hash of the filters and an HMAC with a key
//     drawn at start-up. A cursor the server did not issue, issued for
//     another list or for other filters (limit may change) answers 400.
//     Cursors do not survive a restart.
//   - Optional fields absent in the data are omitted, never "". These are
//     sent as null when unknown: fiat_account_owner.person_details,
//     wire.fiat_account_owner_address and routing_details.bank_address.
//
// # Seeded data
//
// Options.Seed determines every seeded row; creation times start at
// 2024-01-01T00:00:00Z and do not depend on the clock. Fiat accounts: about
// 10% deleted (listed only with include_deleted=true), 20% with
// person_details null and institution_details instead, 25% with fiat_account_owner_address null, most
// account numbers masked, wire status PENDING, ACTIVE or REJECTED, metadata
// with free-form values. Deposit addresses spread over 4 profiles, 6
// identities, 6 accounts and 8 networks. Claims spread over 5 payout
// groups, 4 chains, 4 jurisdictions and the 4 onchain statuses. Stablecoin
// conversions all have status CREATED; some have settled_at or
// cancelled_at. Accessors (FiatAccounts, DepositAddresses, RewardClaims,
// StablecoinConversions, Transfers, FiatDepositInstructions) return the data
// so tests can compute expected results.
//
// # Faults and admin API
//
// Faults switches apply to /v2 requests: latency on every request; the next
// N requests answer 429 (Retry-After in seconds, 0 when unset) or a 5xx;
// the next N POSTs are processed and stored, then answered 500
// (accept-then-fail) or held for a while and then answered normally
// (accept-then-hang). A held or delayed request whose client goes away, or
// that is still held when the server closes, gets no answer: its connection
// is dropped. An optional path prefix limits all but latency. Faults are
// applied before authorization; a POST that fails validation does not use up
// an accept-then-* switch.
// The admin API has no authentication and is meant for loopback use:
//
//	GET  /admin/faults                      current FaultConfig
//	PUT  /admin/faults                      replace it (FaultConfig JSON)
//	POST /admin/expire-tokens               expire every token (204)
//	POST /admin/instructions/{id}/deprecate status DEPRECATED (200, the instructions)
//	DELETE /admin/instructions/{id}         delete (204)
//	POST /admin/fiat-accounts/{id}/status   {"status": "APPROVED"}: the review of an account made
//	                                        through the API (PENDING, APPROVED, REJECTED; 200, the account)
//	GET  /admin/counters                    CountersSnapshot
//	POST /admin/counters/reset              zero the counters (204)
//	POST /admin/transfers/{id}/status       {"status": "COMPLETED", "crypto_tx_hash": "0x..."}:
//	                                        move a transfer made through the API (204)
//	POST /admin/transfers/{id}/backdate     {"seconds": n}: move a transfer made through the API
//	                                        n seconds into the past, created_at and updated_at
//	                                        (204): rehearse max_daily_total and max_weekly_total
//	GET  /admin/transfers[?ref_id=...]      AdminTransfers: transfers made through the API
//	GET  /admin/balances                    AdminBalances: every balance set
//	PUT  /admin/balances                    {"profile_id": ..., "asset": "USD", "available": "100"}:
//	                                        set one balance (200, AdminBalances)
//	POST /admin/conversions/{id}/settle     settle a conversion made through the API (200, the
//	                                        conversion; 404 unknown, 409 not CREATED)
//	POST /admin/clock/advance               {"seconds": n}: move the clock (200, {"now": ...})
//	GET  /admin/fees                        FeesTable: withdrawal fee by asset
//	PUT  /admin/fees                        set the fees named (FeesTable JSON; 200, the table)
//	POST /admin/fees/reset                  the fees above again (200, the table)
//	POST /admin/crypto-destination-addresses/{id}/status
//	                                        {"status": "APPROVED"}: approve (or reject, or send
//	                                        back to PENDING) an address of the book (200, the address)
//
// retry_after_seconds -1 answers 429 without Retry-After. The guide
// docs/guides/testing-with-the-emulator.md documents each endpoint with
// its bodies.
//
// # Logging
//
// Options.LogLevel and Options.Log: one line per request (method, path,
// status, duration, the ref_id of a POST under /v2, the fault applied), at
// LogError only for 5xx answers and dropped connections, at LogDebug with
// the query (credential-looking values redacted), the remote address and
// X-Request-Id. No header, form or body is logged. Off by default;
// cmd/platform-emulator logs at info (-log-level).
//
// # Published reference and the spec
//
// Where the service's API reference and the spec differ, the emulator
// follows the reference, which is what the service does. Each difference,
// with the spec's wording beside it:
//
//   - Claims filter: the on-chain status filter is the query key statuses
//     (spec: "List claims | onchain_statuses | array of enum | PENDING,
//     SUBMITTED, CONFIRMED, FAILED"; onchain_statuses is still accepted),
//     and asset_type filters by asset, for example USDG (spec: no such
//     parameter).
//   - Claim items carry onchain_status and claim_type (CLAIM_ALL,
//     CLAIM_FOR_ADDRESSES, CLAIM_UNREGISTER) (spec: the claim table lists
//     id ... updated_at, neither of them).
//   - Crypto networks: the reference's 16 (spec: "crypto_network | enum |
//     BITCOIN, ETHEREUM, BITCOIN_CASH, LITECOIN, SOLANA, POLYGON_POS,
//     BASE, ARBITRUM_ONE, STELLAR, INK, XLAYER", without AVALANCHE,
//     DOGECOIN, SUI, ROBINHOOD and BNB).
//   - Fiat accounts: status (PENDING, APPROVED, REJECTED) and metadata
//     are at the top level of the item, as the reference's schema has them
//     (spec: "fiat_network_instructions | object | Holds wire: ...,
//     status (string), metadata (object with free-form values)", and
//     "Allowed values of the wire status of a fiat account beyond PENDING:
//     not shown"; the reference's example nests them under wire too, and
//     the emulator's nested form says ACTIVE for APPROVED).
//     Options.FiatAccountStatusNested serves the nested form.
//   - Fiat account owners: fiat_account_owner.institution_details.name
//     beside person_details (spec: "fiat_account_owner holds
//     person_details with first_name and last_name"). Seeded accounts
//     whose person_details is null are owned by an institution.
//   - Deposit addresses: items carry account_id and always
//     conversion_target_asset, null when deposits are not converted (spec:
//     the item table has no account_id, and "Which deposit-address fields
//     are always present: not shown").
//   - Fiat deposit instructions of DBS_ACT, CUBIX, SCB and RTP, and
//     wire.intermediary_routing_details, are published (spec: "Instruction
//     shapes for fiat networks other than WIRE: not shown"). The emulator
//     sends the reference's shapes for the other networks (see Create
//     operations) and, for SWIFT wires, intermediary_routing_details
//     shaped like routing_details (a fixed correspondent bank); clients
//     keep whatever the service sends.
//   - Errors are RFC 7807 problems ({type, title, status, detail, meta},
//     application/problem+json) (spec: "HTTP error status codes, error
//     body shape and the mapping from conditions to codes: not shown").
//     The emulator answers every error that way (see Errors), and a
//     refused withdrawal (Faults.RefuseWithdrawals) with 403 and, for
//     example, type .../problems/insufficient-funds: a 403 is not only a
//     missing scope. Options.ErrorBodyCodeMessage answers {code, message,
//     field} instead, which clients read just as well.
//   - A path the service does not have answers 404 with a body that is
//     not the not-found problem: {"message": "no route matches GET
//     /v2/x"}, Content-Type application/json (spec: not shown; the
//     reference documents 404 only as the problem {"type": "about:blank",
//     "title": "Not Found", "status": 404, ...} of an object that does not
//     exist). Clients take only that problem (or, under
//     Options.ErrorBodyCodeMessage, the code NOT_FOUND) for a missing
//     object, and any other 404 for an address without that operation.
//   - Rate limits: per endpoint and IP address, averaged over 5 minutes,
//     the token endpoint 1 request/s, order books, recent executions,
//     quote executions and identities 10/s, crypto withdrawals and
//     internal transfers 20/s, every other endpoint 50/s; a 429 throttles the address for 5 minutes (spec: "Rate
//     limits: not shown"). Faults.TooManyRequests with a negative wait
//     answers 429 without Retry-After, as that throttle does. The emulator
//     counts requests only when asked (Options.RateLimits, -rate-limits,
//     PUT /admin/rate-limits; see rate_limits.go): per endpoint and
//     address, a breach answers 429 RESOURCE_EXHAUSTED without
//     Retry-After and throttles every request from the address.
//   - Markets have no dash: BTCUSD, ETHUSD, SOLUSD (spec: "params.market
//     is a market identifier string"; the emulator served BTC-USD before).
//   - A refused channel of a subscribe reply carries its code as a bare
//     string, "error":"UNKNOWN_CHANNEL_PARAMS_CONFIGURATION" (spec: "A
//     per-channel failure in subscribe or unsubscribe is reported with
//     success false in that channel's entry" and "The envelope in which a
//     streaming error code is delivered: not shown");
//     Options.ChannelErrorObject sends the {code, message} object instead.
//   - Reply entries echo params (spec: "The response echoes each channel's
//     type and params"); an older page of the docs shows replies without
//     them, which Options.RepliesWithoutParams serves.
//   - The first market_data message of a subscription is its SNAPSHOT,
//     sent once, and UPDATEs may come before it (spec: "Initial snapshot
//     followed by incremental order book updates" and "The type value of
//     the initial snapshot message in market_data: not shown");
//     Options.SnapshotBeforeReply sends an UPDATE and the SNAPSHOT before
//     the subscribe reply.
//   - Stream subscriptions: one per second per IP address; excess ones
//     wait silently (spec: "Maximum connections or subscriptions per
//     client: not shown"). The emulator holds a subscribe until its turn
//     (Options.SubscriptionInterval, default 1s; -subscription-interval for
//     cmd/platform-emulator); see ws.go.
//   - A reused withdrawal ref_id answers 409 with the already-exists
//     problem and meta.existing (spec: "ref_id | string | no |
//     Client-specified id for replay protection and lookup", no answer
//     shown); see Create operations.
//
// # Profiles
//
// List, Create, Get, Update and Deactivate Profile are served as the
// reference publishes them (GET and POST /profiles, GET and PUT
// /profiles/{profile_id}, PUT /profiles/{profile_id}/deactivate; scopes
// funding:read_profile and funding:write_profile). The reference publishes
// no error of these operations; the emulator chooses:
//
//   - It starts with one profile, of type DEFAULT and nickname "default"
//     (Server.DefaultProfileID; GET /profiles/default reads it). Create makes
//     NORMAL profiles; description is echoed when sent, account_id never.
//     The balances of a profile and the sandbox deposit answer for any
//     profile id, as before profiles were served.
//   - A nickname is unique among the active profiles, compared without
//     letter case (as the list's nickname filter compares). Create or
//     Update with a nickname another active profile holds answers 409 with
//     the already-exists problem ({"type": ".../problems/already-exists",
//     "title": "Already Exists", "status": 409, "detail": "profile already
//     exists with nickname '...'", "meta": {"existing": <that profile>}})
//     and changes nothing. An empty nickname is a 400.
//   - Deactivate answers 200 {}. A profile holding a balance above zero is
//     refused with 409 and the problem {"type":
//     ".../problems/failed-precondition", "title": "Conflict", "status":
//     409, "detail": "profile P holds a balance above zero (10 USD): ...",
//     "meta": {"balances": [{"asset": "USD", "available": "10"}]}}; the
//     default profile with 400 (field profile_id); an unknown id with 404.
//     Deactivating a deactivated profile answers 200 again.
//   - A deactivated profile leaves the list, answers 404 to Get unless
//     include_deactivated=true and 404 to Update, and frees its nickname.
//     A deposit that gives it a balance above zero reactivates it, as the
//     reference says.
//   - List Profiles: ordered by creation, ASC by default; limit 1 to 1000,
//     default 1000 (as published); filters ids, nickname (a prefix,
//     without letter case), created_at.* and order_by CREATED_AT; cursors
//     as in the other lists. Server.Profiles returns every profile, and
//     Server.ProfileDeactivated tells the deactivated ones.
//
// # Reads the spec leaves out
//
// The API reference publishes reads the spec does not show; the emulator
// serves them as published:
//
//   - GET /transfer/transfers/{id} (scope transfer:read_transfer): one
//     Transfer, 404 when unknown.
//   - GET /transfer/transfers (transfer:read_transfer): the seeded transfers
//     (Options.Transfers, of several types and statuses) and the transfers
//     made through the API, newest first unless order=ASC, by created_at
//     unless order_by=UPDATED_AT; limit (default 100, at most 1000),
//     page_cursor; filters ids, ref_ids, profile_ids, identity_ids,
//     account_ids, group_ids, crypto_tx_hashes, type, statuses (PENDING,
//     COMPLETED, FAILED), created_at.{lt,lte,eq,gte,gt} and
//     updated_at.{lt,lte,eq,gte,gt}. An unknown type matches nothing (the
//     reference's list of types grows), where an unknown status is a 400.
//   - GET /transfer/fiat-deposit-instructions
//     (transfer:read_fiat_deposit_instructions): the instructions made
//     through the API, with ids, ref_ids, created_at.*, limit, order
//     (default DESC) and page_cursor.
//
// A transfer made through the API is PENDING until SetTransferStatus (or
// the admin API) moves it to COMPLETED, with a crypto_tx_hash for a crypto
// withdrawal, or FAILED, with status_details; updated_at moves with it.
//
// # Money flows beyond the excerpt
//
// The published excerpt does not show these operations: it has the
// Transfer and StablecoinConversion schemas, List and Get Transfer, Get
// and Cancel Stablecoin Conversion, and names the scope
// conversion:write_conversion_stablecoin, but no request body, no other
// scope and no answer of a create. The emulator serves them with these
// choices:
//
//   - POST /transfer/fiat-withdrawals (scope transfer:write_fiat_withdrawal,
//     FiatWithdrawalRequest): profile_id, fiat_account_id and asset
//     required; exactly one of amount and total, decimals of the spec's
//     pattern above zero; memo, ref_id, identity_id, account_id and
//     metadata (as for crypto withdrawals) optional; any other field 400.
//     The fiat account must be one the emulator knows, made through the API
//     or seeded, and not deleted (else 400 with meta.field fiat_account_id),
//     and APPROVED (else 400 on fiat_account_id naming its status; the
//     nested form's ACTIVE counts as APPROVED). Fiat withdrawals pay no fee:
//     fee "0", total = amount. The answer is 201 with a Transfer of
//     direction DEBIT, status PENDING, fiat_account_id, memo, metadata,
//     auto_conversion {} and no notional_value, whose type follows the
//     account's network: wire WIRE_WITHDRAWAL, cbit CBIT_WITHDRAWAL, cubix
//     CUBIX_WITHDRAWAL, rtp, dbs_act and scb BANK_WITHDRAWAL (no network
//     makes SEN_ or SIGNET_WITHDRAWAL). Transfer limits, guaranteed fees
//     and Faults.RefuseWithdrawals apply to crypto withdrawals only.
//   - POST /transfer/internal (scope transfer:write_internal_transfer,
//     InternalTransferRequest): from_profile_id, to_profile_id, asset and
//     amount (a decimal above zero) required, from and to different (400 on
//     to_profile_id); ref_id, identity_id, account_id and metadata
//     optional. It makes two transfers sharing a fresh group_id, the debit
//     side (INTERNAL_TRANSFER_DEBIT, DEBIT, profile_id from) and then the
//     credit side (INTERNAL_TRANSFER_CREDIT, CREDIT, profile_id to), each
//     PENDING with fee "0", total = amount and the request's ref_id and
//     metadata, and answers 201 with the debit side. SetTransferStatus
//     moves each side on its own.
//   - POST /conversion/stablecoins (scope
//     conversion:write_conversion_stablecoin, StablecoinConversionRequest):
//     profile_id, source_asset, target_asset and amount (a decimal above
//     zero) required; the assets are USD, USDC and PYUSD, the source and
//     target different (400 on target_asset); recipient_profile_id, ref_id,
//     identity_id, account_id and metadata optional. It answers 201 with
//     the StablecoinConversion in CREATED, created_at = updated_at = now,
//     served by Get Stablecoin Conversion after the seeded ones are looked
//     up. Conversions convert one to one.
//   - DELETE /conversion/stablecoins/{id} (the published Cancel, scope
//     conversion:write_conversion_stablecoin): a CREATED conversion becomes
//     CANCELLED with cancelled_at = updated_at = now, answered 200. An id
//     that is not a UUID answers 400, an unknown one 404, a SETTLED one 409
//     CONFLICT naming its status. A conversion already CANCELLED is
//     answered 200 as it is (cancelling twice cancels once), so a cancel
//     may be sent again. Seeded conversions are read-only (400). Other
//     methods on the path answer 405 with Allow: GET, DELETE.
//   - A conversion is SETTLED (settled_at = updated_at = now) only by
//     SettleConversion or POST /admin/conversions/{id}/settle, for a
//     CREATED conversion made through the API.
//   - A ref_id already used by an object of the same operation answers, as
//     a crypto withdrawal does by default, 409 with the already-exists
//     problem and meta.existing (for an internal transfer its debit side;
//     for a conversion, one made through the API or seeded), whatever the
//     new body, and creates nothing. Options.WithdrawalReplay does not
//     apply to them. Each operation has its own namespace: a fiat
//     withdrawal may reuse the ref_id of a crypto withdrawal, of an
//     internal transfer or of a conversion.
//   - Balances: none is set by default, and an operation whose profile and
//     asset have no balance is never refused for funds. SetBalance (or PUT
//     /admin/balances) sets the available balance of a profile in an asset
//     (assets compared in upper case), an exact decimal; Balance and
//     Balances (GET /admin/balances) read them. Where a balance is set, an
//     operation that needs more of it than is available answers 403 with
//     the published problem {"type": ".../problems/insufficient-funds",
//     "title": "Forbidden", "status": 403, "detail": "insufficient funds:
//     profile P has 10 USD available, the fiat withdrawal needs 12.5 USD"}
//     and makes nothing (a guaranteed fee stays usable); otherwise the
//     operation debits it when it is made: a crypto withdrawal its total
//     from balance_asset (when given, its value at the emulator's USD
//     prices) or else its asset, a fiat withdrawal its total, an internal
//     transfer its amount from from_profile_id, a conversion its amount of
//     source_asset from profile_id. Credits go only to balances that are
//     set (none is made by a credit): an internal transfer credits
//     to_profile_id when it is made; a conversion credits its amount of
//     target_asset to recipient_profile_id, or else profile_id, when it
//     settles. A cancelled conversion gives back to profile_id the amount it
//     debited (nothing when no balance was set as it was made).
//     A transfer that FAILED gives nothing back: SetTransferStatus moves no
//     balance.
//   - GET /profiles/{id}/balances (scope funding:read_profile, as
//     published) answers {"items": [{"asset": "USD", "available": "10",
//     "trading": "0"}]}: the balances set for the
//     profile, by asset in upper case, trading always "0"; a profile with
//     none answers an empty list, never 404.
//   - Server.Transfers returns every transfer made through the API, of
//     every operation; TransfersOfType those of some types;
//     MadeStablecoinConversions the conversions made through the API.
//
// # Limits, guaranteed fees and the ticker
//
// Published operations the spec does not show, served as the reference
// publishes them; where it is silent, the emulator chooses:
//
//   - GET /transfer/limits/utilizations (transfer:read_transfer_limit):
//     transfer_type is required (400 without it or with a value outside the
//     published enum). The limits come from SetTransferLimits or PUT
//     /admin/limits {"limits": [...]} (GET /admin/limits lists them); there
//     are none by default. Every limit is answered in one page (no
//     next_page_cursor; the reference publishes the cursor but no query
//     parameter to send it back). A single-transaction limit
//     (period_seconds "0") has no id and its remaining is its limit.
//   - A crypto withdrawal spends every limit of CRYPTO_WITHDRAWAL: its
//     amount (the fee does not count; the reference is silent), converted
//     into limit_asset at the emulator's USD prices when the assets differ,
//     within period_seconds before now by the emulator's clock. A
//     withdrawal over a remaining (or over a single-transaction limit) is
//     refused as the reference refuses a transfer, 403 "Could not create
//     transfer", with the problem type .../limit-exceeded, title "Limit
//     Exceeded" and meta rule_id, limit, remaining, limit_asset (the
//     reference shows no example of this refusal). Nothing is made. A
//     replay of an earlier ref_id answers the earlier transfer before any
//     limit or fee is checked.
//   - POST /transfer/fees/crypto-withdrawal (fee:write_crypto_withdrawal_fee):
//     exactly one of amount and total; the fee is the fee table's of the
//     asset at that moment (see /admin/fees); the quote is valid one minute
//     (SetFeeQuoteTTL). ExpireNextFeeQuotes(n) or POST
//     /admin/fee-quotes/expire-next {"count": n} issues the next n quotes
//     already expired; GET /admin/fee-quotes lists them.
//   - A withdrawal with fee_id pays exactly the quote's fee and uses the
//     quote up. An unknown or used fee_id answers 404 "fee not found with
//     id ..." (the reference's example); an expired one 403 with the
//     problem type .../expired, title "Expired" and meta.expired_at (the
//     reference's example). A quote for another asset, network or
//     destination, or an amount (total) above the quoted one, is a 400 on
//     fee_id (amount, total). A withdrawal refused by a limit leaves its
//     quote usable. Before this, fee_id was accepted unchecked.
//   - GET /markets/{market}/ticker: public (the reference gives it no
//     security), deprecated in the reference. The emulator answers the
//     markets BASEUSD whose base it prices (BTC 65000, ETH 3500, SOL 150,
//     LTC 80, BCH 400, POL 0.5): best_bid 0.1% below, best_ask 0.1% above,
//     last_execution at the price; other markets 404. last_day and today
//     are left out.
//   - Precision: the reference (in the excerpt this emulator follows)
//     publishes no error for an amount more precise than its asset, and no
//     precision per asset, so the emulator accepts any amount of the
//     decimal pattern. The provider warns at plan of an amount more precise
//     than a well-known asset's smallest unit (BTC 8 decimals, ETH 18, ...).
//
// # The withdrawal address book
//
// PUT /transfer/crypto-destination-address (scope
// transfer:write_crypto_destination_address) and GET
// /transfer/crypto-destination-addresses
// (transfer:read_crypto_destination_address) are served as the API
// reference publishes them (the spec has neither). Where the reference is
// silent, the emulator chooses:
//
//   - The PUT answers 200 {"address": ...} whether it created or updated
//     the address. A body with id and any of crypto_network, address or
//     identity_id answers 400 (field id); an unknown id 404. Without id,
//     crypto_network (one of the 16 networks) and address are required, and
//     the tuple (crypto_network, address, identity_id) names the entry:
//     the address is compared exactly, case included, and an absent
//     identity_id is the first-party scope, distinct from every identity.
//     An empty identity_id or nickname answers 400.
//   - Addresses are checked for whitespace (400), and on the EVM networks
//     (ETHEREUM, POLYGON_POS, BASE, ARBITRUM_ONE, INK, XLAYER, AVALANCHE,
//     ROBINHOOD, BNB) for the shape 0x and 40 hexadecimal digits (400); the
//     reference publishes no shape.
//   - A new address gets the nickname <network in lower case>-<last 6
//     characters of the address> (ethereum-595515) unless the PUT names
//     one, bookmarked false unless bookmarked_status is sent, a fresh
//     policy_execution_id, created_at by the emulator's clock and the status
//     Options.CryptoDestinationAddressStatus (PENDING by default). An update
//     changes only what the PUT sends (nickname, bookmarked_status,
//     travelrule_metadata, which is replaced whole); status, created_at and
//     policy_execution_id stay.
//   - travelrule_metadata is stored and answered with the reference's
//     fields. custodian_type is VASP or PRIVATE; vasp takes id, or
//     custom_vasp_name with custom_vasp_website (400 otherwise); the
//     answered vasp.name is "Known VASP <id>" for an id and the custom
//     name otherwise. beneficiary takes person_details (first_name and
//     last_name required), institution_details (name required) or self =
//     true, one at a time; physical_address.country is three upper-case
//     letters and the other lines follow the reference's pattern and 35
//     characters.
//   - The list answers {"addresses":[...],"next_page_cursor":"..."} (the
//     reference's key; every other list answers items), ordered by
//     created_at, DESC by default, with the filters ids, identity_ids,
//     crypto_networks, addresses, nicknames, bookmarked_status,
//     created_at.*, limit (1 to 1000, default 100), order, order_by
//     (CREATED_AT) and page_cursor, cursors as in the other lists.
//   - Options.CryptoDestinationAddresses seeds the book (created from
//     2024-01-01, one a minute, every status, some scoped to one of three
//     identities, some bookmarked, some with Travel Rule data).
//     SetCryptoDestinationAddressStatus and POST
//     /admin/crypto-destination-addresses/{id}/status set the status of
//     any of them, as the service's review does; the API has no delete.
//
// # Orchestration rules
//
// POST /orchestration/rules, GET /orchestration/rules (scope
// orchestration:read_orchestration_rule) and DELETE
// /orchestration/rules/{id} (orchestration:write_orchestration_rule for
// both writes) are served as the API reference publishes them. Where the
// reference is silent, the emulator chooses:
//
//   - The create requires ref_id, profile_id, source_asset,
//     destination_asset (each one of USDG, PYUSD, USDP, USDC, USD) and
//     source, with exactly one of crypto (network one of ETHEREUM, SOLANA,
//     STELLAR, BASE, POLYGON) or fiat (network WIRE or CUBIX, account_type
//     SWIFT or ABA). destination is optional; when sent it has exactly one
//     of crypto (address and network, one of the 16 networks; the
//     deprecated crypto_address_id answers 400), fiat (fiat_account_id, a
//     fiat account that exists and is APPROVED, else 400; memo optional) or
//     profile (profile_id). It answers 200 {"rule": ...}: the status is
//     Options.OrchestrationRuleStatus (PENDING by default, or ACTIVE),
//     created_at by the emulator's clock, and the source carries what the
//     rule watches: a fresh address_id and an address on the network (a
//     crypto source), or a fresh deposit_instructions_id and memo_id (a
//     fiat one). The source and destination assets may be the same.
//   - A ref_id already used answers 409 with the already-exists problem,
//     without the rule (the reference publishes the error and no
//     meta.existing), whatever the new body, and creates nothing.
//   - The list answers {"items":[...],"next_page_cursor":"..."}: the
//     deprecated rules key is left out. Rules are ordered by created_at,
//     DESC by default, with the filters profile_id, status (repeated keys,
//     the four statuses), source_asset, destination_asset, ids, limit (1
//     to 1000, default 100), order and page_cursor; ref_id is no filter of
//     the reference, and ref_ids, like any unknown parameter, answers 400.
//   - Delete makes the rule DELETED and answers 200 {"rule": ...}; a rule
//     already DELETED is answered as it is, an unknown id 404.
//   - POST /admin/orchestration-rules/{id}/approve and .../reject move a
//     PENDING rule to ACTIVE or REJECTED (409 from another status), and
//     .../delete any rule to DELETED; each answers the rule.
//     SetOrchestrationRuleStatus sets any status from Go.
//   - Deposits to the source are not routed: no orchestration is made.
package emulator
