// Drives the subscribe page (/subscribe/{planId}) in Debian's headless chromium with the injected anvil
// wallet of wallet.mjs.
//
// Input: the JSON in $PAGE_CONFIG: { scenario: "subscribe" | "cancel" | "screenshots", url, rpcUrl,
//   anvilChainId, account, chromium, screenshots: [{ width, path }], timeoutMs }
// Output: one JSON line on stdout describing what happened (the Rust test asserts on it).
import { calls, config, openPage, run, timeout, visible } from "./wallet.mjs";

async function connect(page) {
  await visible(page, "[data-action=connect]");
  await page.click("[data-action=connect]");
}

async function heading(page, text) {
  await page
    .waitForFunction((want) => document.querySelector("#subscription-heading")?.textContent === want, { timeout }, text)
    .catch(async (error) => {
      const said = await page.$eval(".checkout-message", (node) => node.textContent).catch(() => "");
      throw new Error(`${error.message}; the page said: ${said}`);
    });
  return page.$eval("#subscription-state", (node) => node.textContent);
}

async function scenario(browser) {
  switch (config.scenario) {
    case "subscribe": {
      const page = await openPage(browser);
      await connect(page);
      await visible(page, "[data-action=subscribe]");
      const label = await page.$eval("[data-action=subscribe]", (button) => button.textContent);
      await page.click("[data-action=subscribe]");
      const state = await heading(page, "Active");
      const cancelVisible = await page.$eval("[data-action=cancel]", (button) => !button.hidden);
      return { label, state, cancelVisible, calls };
    }
    case "cancel": {
      const page = await openPage(browser);
      await connect(page);
      const active = await heading(page, "Active");
      await page.click("[data-action=cancel]");
      const state = await heading(page, "Canceled");
      return { active, state, calls };
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

await run(scenario);
