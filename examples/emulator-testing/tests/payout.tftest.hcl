# terraform test against the emulator: the PLATFORM_* variables point the
# provider at it. Every run shares one state, destroyed at the end (a
# withdrawal is only removed from the state: it cannot be reversed).

variables {
  ref_id = "payout-test-1"
}

# The plan shows the ref_id the withdrawal will be sent with.
run "plan_shows_ref_id" {
  command = plan

  assert {
    condition     = platform_crypto_withdrawal.payout.ref_id == "payout-test-1"
    error_message = "the plan does not carry the ref_id"
  }
}

# A bad amount is refused before anything is sent.
run "bad_amount_refused" {
  command = plan

  variables {
    amount = "-1"
  }

  expect_failures = [var.amount]
}

# The apply sends one withdrawal; the emulator answers as the service does.
run "sends_one_withdrawal" {
  assert {
    condition     = output.status == "PENDING"
    error_message = "a new withdrawal should be PENDING, got ${output.status}"
  }
  assert {
    condition     = output.fee == "0.0001" && output.total == "0.5001"
    error_message = "fee ${output.fee} and total ${output.total}: want 0.0001 and 0.5001"
  }
  assert {
    condition     = output.transfer_id != ""
    error_message = "no transfer id"
  }
}

# The next plan sends nothing: a plan that replaced the withdrawal would
# leave its id unknown, which fails the assertion.
run "next_plan_sends_nothing" {
  command = plan

  assert {
    condition     = platform_crypto_withdrawal.payout.id != "" && platform_crypto_withdrawal.payout.status == "PENDING"
    error_message = "the next plan would send another withdrawal"
  }
}
