package provider

import "github.com/hashicorp/terraform-plugin-framework/action"

// NewCryptoWithdrawalAction is the constructor of the
// platform_crypto_withdrawal action: the action of its flow, which sends
// one withdrawal each time it is invoked, through the resource's send.
func NewCryptoWithdrawalAction() action.Action { return newMoneyAction(&cryptoWithdrawalFlow) }
