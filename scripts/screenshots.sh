#!/usr/bin/env bash
# Screenshots of the payment page (an unpaid receipt with the wallet checkout, at 390 and 1280 px) into
# docs/screenshots/, taken by the browser test on anvil with Debian's chromium (docs/payment-page.md).
# Needs: chromium, node/npm (for puppeteer-core and anvil), and a Rust toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
bash contracts/install-chain-tools.sh >/dev/null
npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
mkdir -p docs/screenshots
PAYMENTS_SCREENSHOT_DIR="$PWD/docs/screenshots" \
  cargo test -p payments-server --test api -- --exact \
  portal_checkout::the_checkout_page_is_screenshotted_at_phone_and_desktop_widths
ls -l docs/screenshots/payment-page-*.png
