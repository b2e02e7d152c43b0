// Drives the payment page in Debian's headless chromium with an injected EIP-1193 wallet backed by an anvil
// account. The wallet lives in this process: the page's `request` calls reach it through
// page.exposeFunction, so nothing is added to the page that its Content-Security-Policy would have to allow.
//
// Input: the JSON in $PAGE_CONFIG:
//   { scenario: "pay" | "refuse" | "noscript" | "screenshots", url, rpcUrl, account,
//     walletChainId, knownChains: [ids the wallet knows before the page adds one], chromium,
//     screenshots: [{ width, path }], timeoutMs }
// Output: one JSON line on stdout describing what happened (the Rust test asserts on it).
import puppeteer from "puppeteer-core";

const config = JSON.parse(process.env.PAGE_CONFIG ?? "{}");
const timeout = config.timeoutMs ?? 60000;
const calls = [];
const wallet = {
  chainId: config.walletChainId ?? 31337,
  known: new Set(config.knownChains ?? [config.walletChainId ?? 31337]),
  refuse: config.scenario === "refuse",
  sentHash: null,
  sentAt: null,
};

async function anvil(method, params) {
  const response = await fetch(config.rpcUrl, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
  });
  const answer = await response.json();
  if (answer.error) throw { code: answer.error.code, message: answer.error.message };
  return answer.result;
}

// What a wallet answers; errors carry EIP-1193 codes (4001 refused, 4902 unknown chain).
async function walletRequest({ method, params }) {
  calls.push(method);
  switch (method) {
    case "eth_requestAccounts":
    case "eth_accounts":
      return [config.account];
    case "eth_chainId":
      return "0x" + wallet.chainId.toString(16);
    case "wallet_switchEthereumChain": {
      const id = Number(params[0].chainId);
      if (!wallet.known.has(id)) throw { code: 4902, message: "Unrecognized chain ID" };
      wallet.chainId = id;
      return null;
    }
    case "wallet_addEthereumChain":
      wallet.known.add(Number(params[0].chainId));
      return null;
    case "eth_sendTransaction": {
      if (wallet.refuse) throw { code: 4001, message: "User rejected the request." };
      if (wallet.chainId !== config.anvilChainId) throw { code: -32000, message: "wrong network" };
      const hash = await anvil("eth_sendTransaction", params);
      wallet.sentHash = hash;
      wallet.sentAt = Date.now();
      return hash;
    }
    default:
      if (wallet.chainId !== config.anvilChainId) throw { code: -32000, message: "wrong network" };
      return anvil(method, params ?? []);
  }
}

const INJECTED = `(() => {
  const provider = {
    request: async (args) => {
      const answer = JSON.parse(await window.__walletRequest(JSON.stringify(args)));
      if (answer.error) {
        const error = new Error(answer.error.message);
        error.code = answer.error.code;
        throw error;
      }
      return answer.result;
    },
    on() {},
    removeListener() {},
  };
  const info = Object.freeze({
    uuid: "6f3c2d1e-0000-4000-8000-000000000001",
    name: "Anvil Test Wallet",
    icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E",
    rdns: "org.example.anvil-test-wallet",
  });
  const announce = () =>
    window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
})();`;

async function openPage(browser, { withWallet = true, javascript = true, width = 390 } = {}) {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900 });
  page.setDefaultTimeout(timeout);
  if (!javascript) await page.setJavaScriptEnabled(false);
  if (withWallet) {
    await page.exposeFunction("__walletRequest", async (text) => {
      try {
        return JSON.stringify({ result: await walletRequest(JSON.parse(text)) });
      } catch (error) {
        return JSON.stringify({ error: { code: error.code ?? -32603, message: error.message ?? String(error) } });
      }
    });
    await page.evaluateOnNewDocument(INJECTED);
  }
  await page.goto(config.url, { waitUntil: "load" });
  // An unopened receipt shows "Continue to payment" (a form post) before how to pay.
  if (!javascript) return page;
  const proceed = await page.$("form[method=post] button[type=submit]");
  if (proceed && (await proceed.evaluate((button) => button.textContent)) === "Continue to payment") {
    await Promise.all([page.waitForNavigation({ waitUntil: "load" }), proceed.click()]);
  }
  return page;
}

async function visible(page, selector) {
  await page.waitForSelector(`${selector}:not([hidden])`, { visible: true });
}

async function connectAndPay(page) {
  await visible(page, "[data-action=connect]");
  await page.click("[data-action=connect]");
  await visible(page, "[data-action=pay]");
  const payLabel = await page.$eval("[data-action=pay]", (button) => button.textContent);
  await page.click("[data-action=pay]");
  return payLabel;
}

async function scenario(browser) {
  switch (config.scenario) {
    case "pay": {
      const page = await openPage(browser);
      const payLabel = await connectAndPay(page);
      await page
        .waitForFunction(() => document.querySelector("#pay-section #pay-heading")?.textContent === "Paid", { timeout })
        .catch(async (error) => {
          const said = await page.$eval(".checkout-message", (node) => node.textContent).catch(() => "");
          throw new Error(`${error.message}; the page said: ${said}`);
        });
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
    default:
      throw new Error(`unknown scenario ${config.scenario}`);
  }
}

const browser = await puppeteer.launch({
  executablePath: config.chromium ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
const deadline = setTimeout(() => {
  console.log(JSON.stringify({ error: `timed out after ${timeout * 2} ms`, calls }));
  process.exit(2);
}, timeout * 2);
try {
  console.log(JSON.stringify(await scenario(browser)));
} catch (error) {
  console.log(JSON.stringify({ error: String(error && error.message ? error.message : error), calls }));
  process.exitCode = 1;
} finally {
  clearTimeout(deadline);
  await browser.close();
}
