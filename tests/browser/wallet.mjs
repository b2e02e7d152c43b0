// The browser harness shared by the page scenarios (checkout.mjs, subscribe.mjs): Debian's headless chromium
// with an injected EIP-1193 wallet backed by an anvil account. The wallet lives in this process: the page's
// `request` calls reach it through page.exposeFunction, so nothing is added to the page that its
// Content-Security-Policy would have to allow.
//
// Input: the JSON in $PAGE_CONFIG (each scenario file documents its own fields), at least
//   { url, rpcUrl, anvilChainId, account, walletChainId, knownChains, chromium, timeoutMs, refuse }
// Output: one JSON line on stdout describing what happened (the Rust test asserts on it).
import puppeteer from "puppeteer-core";

export const config = JSON.parse(process.env.PAGE_CONFIG ?? "{}");
export const timeout = config.timeoutMs ?? 60000;

// One wallet's state: its account, the chain it is on, the chains it knows, what the page asked of it and
// the hash of the transaction it sent. Every tab gets its own wallet, so several buyers can share a browser.
export function newWallet({
  account = config.account,
  chainId = config.walletChainId ?? 31337,
  knownChains = config.knownChains,
  refuse = false,
} = {}) {
  return { account, chainId, known: new Set(knownChains ?? [chainId]), refuse, calls: [], sentHash: null, sentAt: null };
}

// The wallet of the single-buyer scenarios, configured by $PAGE_CONFIG.
export const wallet = newWallet({ refuse: config.refuse === true || config.scenario === "refuse" });
export const calls = wallet.calls;

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

// What `wallet` answers; errors carry EIP-1193 codes (4001 refused, 4902 unknown chain).
async function walletRequest(wallet, { method, params }) {
  wallet.calls.push(method);
  switch (method) {
    case "eth_requestAccounts":
    case "eth_accounts":
      return [wallet.account];
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

// A new tab of `url` (default `config.url`) at `width` px, with `own` (default: the configured wallet)
// injected unless told otherwise.
export async function openPage(
  browser,
  { withWallet = true, javascript = true, width = 390, url = config.url, own = wallet } = {},
) {
  const page = await browser.newPage();
  await page.setViewport({ width, height: 900 });
  page.setDefaultTimeout(timeout);
  if (!javascript) await page.setJavaScriptEnabled(false);
  if (withWallet) {
    await page.exposeFunction("__walletRequest", async (text) => {
      try {
        return JSON.stringify({ result: await walletRequest(own, JSON.parse(text)) });
      } catch (error) {
        return JSON.stringify({ error: { code: error.code ?? -32603, message: error.message ?? String(error) } });
      }
    });
    await page.evaluateOnNewDocument(INJECTED);
  }
  await page.goto(url, { waitUntil: "load" });
  return page;
}

export async function visible(page, selector) {
  await page.waitForSelector(`${selector}:not([hidden])`, { visible: true });
}

// Launches chromium, runs `scenario(browser)` and prints its report (or the error) as one JSON line.
export async function run(scenario) {
  const browser = await puppeteer.launch({
    executablePath: config.chromium ?? "/usr/bin/chromium",
    headless: true,
    // Tabs in the background keep their timers (the pages poll their status) when several buyers share
    // the browser.
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-dev-shm-usage",
      "--disable-background-timer-throttling",
      "--disable-renderer-backgrounding",
      "--disable-backgrounding-occluded-windows",
    ],
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
}
