// Drives the payment page in Debian's headless chromium with the injected anvil wallet of wallet.mjs.
//
// Input: the JSON in $PAGE_CONFIG:
//   { scenario: "pay" | "refuse" | "noscript" | "screenshots" | "concurrent", url, rpcUrl, account,
//     walletChainId, knownChains: [ids the wallet knows before the page adds one], chromium,
//     screenshots: [{ width, path }], buyers: [{ url, account }] (concurrent), timeoutMs }
// Output: one JSON line on stdout describing what happened (the Rust test asserts on it).
import { calls, config, newWallet, openPage as openTab, run, timeout, visible, wallet } from "./wallet.mjs";

async function openPage(browser, options = {}) {
  const page = await openTab(browser, options);
  // An unopened receipt shows "Continue to payment" (a form post) before how to pay.
  if (options.javascript === false) return page;
  const proceed = await page.$("form[method=post] button[type=submit]");
  if (proceed && (await proceed.evaluate((button) => button.textContent)) === "Continue to payment") {
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), proceed.click()]);
  }
  return page;
}

async function connectAndPay(page) {
  await visible(page, "[data-action=connect]");
  await page.click("[data-action=connect]");
  await visible(page, "[data-action=pay]");
  const payLabel = await page.$eval("[data-action=pay]", (button) => button.textContent);
  await page.click("[data-action=pay]");
  return payLabel;
}

async function waitForPaid(page) {
  await page
    // Polled on a timer, not on animation frames, so a tab in the background is watched too.
    .waitForFunction(() => document.querySelector("#pay-section #pay-heading")?.textContent === "Paid", {
      timeout,
      polling: 200,
    })
    .catch(async (error) => {
      const said = await page.$eval(".checkout-message", (node) => node.textContent).catch(() => "");
      throw new Error(`${error.message}; the page said: ${said}`);
    });
}

// Several buyers, each with a tab of their own receipt and a wallet of their own, in one browser: all
// connect, then all press Pay at the same moment, and each tab must end showing Paid.
async function concurrentBuyers(browser) {
  // Opening and connecting go tab by tab, each brought to the front: puppeteer's visibility checks wait for
  // animation frames, which a background tab does not get. What must be simultaneous is the paying.
  const tabs = [];
  for (const buyer of config.buyers) {
    const own = newWallet({ account: buyer.account, chainId: config.anvilChainId, knownChains: [config.anvilChainId] });
    const page = await openPage(browser, { url: buyer.url, own });
    await page.bringToFront();
    await visible(page, "[data-action=connect]");
    await page.click("[data-action=connect]");
    await visible(page, "[data-action=pay]");
    tabs.push({ buyer, own, page });
  }
  // Every tab presses Pay at the same moment (clicks are dispatched without needing the tab in front).
  await Promise.all(tabs.map(({ page }) => page.$eval("[data-action=pay]", (button) => button.click())));
  return {
    buyers: await Promise.all(
      tabs.map(async ({ buyer, own, page }) => {
        await waitForPaid(page);
        const section = await page.$eval("#pay-section", (node) => node.textContent);
        return { url: buyer.url, account: buyer.account, hash: own.sentHash, section, calls: own.calls };
      }),
    ),
  };
}

async function scenario(browser) {
  switch (config.scenario) {
    case "pay": {
      const page = await openPage(browser);
      const payLabel = await connectAndPay(page);
      await waitForPaid(page);
      const paidShownMs = Date.now() - wallet.sentAt;
      const section = await page.$eval("#pay-section", (node) => node.textContent);
      const badge = await page.$eval(".badge", (node) => node.textContent);
      return { payLabel, hash: wallet.sentHash, paidShownMs, section, badge, calls, walletChainId: wallet.chainId };
    }
    case "refuse": {
      const page = await openPage(browser);
      const payLabel = await connectAndPay(page);
      await page.waitForFunction(() => /declined/.test(document.querySelector(".checkout-message")?.textContent ?? ""));
      const message = await page.$eval(".checkout-message", (node) => node.textContent);
      const payVisible = await page.$eval("[data-action=pay]", (button) => !button.hidden);
      return { payLabel, message, payVisible, calls };
    }
    case "noscript": {
      const page = await openPage(browser, { withWallet: false, javascript: false });
      const html = await page.content();
      return {
        hasQr: html.includes('<div class="qr"><svg'),
        hasUri: html.includes('href="ethereum:'),
        checkoutHidden: /<div id="wallet-checkout"[^>]* hidden/.test(html),
      };
    }
    case "screenshots": {
      const written = [];
      for (const shot of config.screenshots ?? []) {
        const page = await openPage(browser, { width: shot.width });
        await visible(page, "[data-action=connect]");
        await page.screenshot({ path: shot.path, fullPage: true });
        written.push(shot.path);
        await page.close();
      }
      return { written };
    }
    case "concurrent":
      return concurrentBuyers(browser);
    default:
      throw new Error(`unknown scenario ${config.scenario}`);
  }
}

await run(scenario);
