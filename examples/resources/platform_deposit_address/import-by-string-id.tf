import {
  to = platform_deposit_address.treasury["ETHEREUM"]
  id = "34bd61ed-cf0a-4012-8be4-d347667b6154"
}
