# Deposit addresses are imported by their id.
terraform import 'platform_deposit_address.treasury["ETHEREUM"]' 34bd61ed-cf0a-4012-8be4-d347667b6154
