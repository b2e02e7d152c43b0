#!/usr/bin/env bash
# Screenshots of the hosted pages at 390 and 1280 px into docs/screenshots/, taken by the browser tests on
# anvil with Debian's chromium: the payment page (an unpaid receipt with the wallet checkout,
# docs/payment-page.md) and the subscribe page (a weekly plan before connecting, docs/subscriptions.md).
# Needs: chromium, node/npm (for puppeteer-core and anvil), and a Rust toolchain.
set -euo pipefail
cd "$(dirname "$0")/.."
bash contracts/install-chain-tools.sh >/dev/null
npm ci --prefix tests/browser --no-audit --no-fund --loglevel=error
mkdir -p docs/screenshots
PAYMENTS_SCREENSHOT_DIR="$PWD/docs/screenshots" \
  cargo test -p payments-server --test api -- --exact \
  portal_checkout::the_checkout_page_is_screenshotted_at_phone_and_desktop_widths \
  subscribe_page::the_subscribe_page_is_screenshotted_at_phone_and_desktop_widths
ls -l docs/screenshots/payment-page-*.png docs/screenshots/subscribe-page-*.png
