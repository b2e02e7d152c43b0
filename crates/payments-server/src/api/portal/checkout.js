// The payment page's one script (served from /portal/assets/checkout.js, allowed by `script-src 'self'`).
// Progressive enhancement: without it the page still shows the QR code and the EIP-681 link. With it the
// buyer connects a browser wallet (EIP-6963 discovery, window.ethereum as a fallback), pays with one
// ERC-20 transfer, and sees the receipt's status change without reloading. Only same-origin requests.
(function () {
  "use strict";

  var TRANSFER = "0xa9059cbb"; // transfer(address,uint256)
  var BALANCE_OF = "0x70a08231"; // balanceOf(address)
  var POLL_MS = 2000;
  var SUBMIT_TRIES = 10;
  var KNOWN_CHAINS = {
    8453: { name: "Base", rpc: "https://mainnet.base.org", explorer: "https://basescan.org" },
    84532: { name: "Base Sepolia", rpc: "https://sepolia.base.org", explorer: "https://sepolia.basescan.org" }
  };

  var live = document.getElementById("portal-live");
  if (!live) return;
  var statusUrl = live.getAttribute("data-status-url");
  var eventsUrl = live.getAttribute("data-events-url");
  var paymentUrl = live.getAttribute("data-payment-url");
  var checkout = document.getElementById("wallet-checkout");
  var shared = window.PaymentsWallet;
  var postJson = shared.postJson;
  var word = shared.word;
  var isRefusal = shared.isRefusal;
  var walletError = shared.walletError;
  var delay = shared.delay;
  var provider = null;
  var account = null;
  var busy = false;

  enableCopyButtons();
  if (checkout) startCheckout();
  startCardPayment();
  poll();

  // "Pay with card": the form posts to the page's own /onramp endpoint; with the script the answer is JSON
  // and the script navigates to the provider itself (a redirect answering the post would be blocked by the
  // page's `form-action 'self'`), or says in place why the card payment could not start.
  function startCardPayment() {
    var form = document.getElementById("card-onramp");
    if (!form) return;
    var message = form.querySelector(".checkout-message");
    var button = form.querySelector("button");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (button.disabled) return;
      button.disabled = true;
      message.className = "checkout-message";
      message.textContent = "Starting the card payment…";
      postJson(form.action, {}).then(function (answer) {
        if (answer.ok && answer.body && /^https:\/\//.test(answer.body.url)) {
          message.textContent = "Opening the card payment…";
          window.location.assign(answer.body.url);
          return;
        }
        button.disabled = false;
        message.className = "checkout-message bad";
        message.textContent =
          (answer.body && answer.body.message) || "The card payment could not start. Please try again.";
      }, function () {
        button.disabled = false;
        message.className = "checkout-message bad";
        message.textContent = "The server could not be reached. Please try again.";
      });
    });
  }

  function $(selector) {
    return checkout.querySelector(selector);
  }

  function say(text, kind) {
    var message = $(".checkout-message");
    message.textContent = text;
    message.className = "checkout-message" + (kind ? " " + kind : "");
  }

  function startCheckout() {
    checkout.hidden = false;
    $("[data-action=connect]").addEventListener("click", connect);
    $("[data-action=pay]").addEventListener("click", pay);
  }

  // Several wallets: the buyer picks one from a list; one: it is used; none announced: window.ethereum.
  function connect() {
    if (busy) return;
    if (provider) return requestAccounts();
    var found = shared.choose($(".wallet-list"), say, function (chosen) {
      provider = chosen;
      requestAccounts();
    });
    if (!found) {
      say("No browser wallet found. Scan the QR code with a wallet app, or open this page in a wallet's browser.", "warn");
    }
  }

  function requestAccounts() {
    busy = true;
    say("Waiting for your wallet…");
    provider
      .request({ method: "eth_requestAccounts" })
      .then(function (accounts) {
        if (!accounts || !accounts.length) throw { code: 4001 };
        account = accounts[0];
        return postJson(eventsUrl, { status: "buyer_logged_in", wallet: account });
      })
      .then(function () {
        // Pay appears only once connecting is over, so a press is never swallowed by the busy guard.
        busy = false;
        $("[data-action=connect]").hidden = true;
        $("[data-action=pay]").hidden = false;
        $(".checkout-account").textContent = "Connected: " + account;
        say("");
      })
      .catch(function (error) {
        busy = false;
        say(isRefusal(error) ? "The wallet did not connect. You can try again." : walletError(error), "warn");
      });
  }

  function pay() {
    if (busy || !account) return;
    busy = true;
    var chainId = Number(checkout.getAttribute("data-chain-id"));
    var token = checkout.getAttribute("data-token");
    var deposit = checkout.getAttribute("data-deposit");
    var amount = BigInt(checkout.getAttribute("data-amount"));
    postJson(eventsUrl, { status: "checkout_initialized", wallet: account })
      .then(function () {
        return ensureChain(chainId);
      })
      .then(function () {
        say("Checking your balance…");
        return provider.request({
          method: "eth_call",
          params: [{ to: token, data: BALANCE_OF + word(account) }, "latest"]
        });
      })
      .then(function (balance) {
        var held = BigInt(balance && balance !== "0x" ? balance : "0x0");
        if (held < amount) {
          throw {
            shortfall: "This wallet holds " + units(held) + " USDC; " + units(amount - held) +
              " USDC is missing to pay " + units(amount) + " USDC. Nothing was sent."
          };
        }
        say("Confirm the payment in your wallet…");
        return provider.request({
          method: "eth_sendTransaction",
          params: [{ from: account, to: token, data: TRANSFER + word(deposit) + word(amount.toString(16)) }]
        });
      })
      .then(function (hash) {
        say("Payment sent. Waiting for the network to see it…");
        return submit(hash, SUBMIT_TRIES);
      })
      .then(function () {
        $("[data-action=pay]").hidden = true;
        say("Payment submitted. This page shows Paid as soon as it is confirmed; no need to pay again.", "good");
      })
      .catch(function (error) {
        busy = false;
        if (error && error.shortfall) return say(error.shortfall, "warn");
        if (isRefusal(error)) return say("You declined in your wallet. Nothing was sent; you can press Pay again.", "warn");
        say(walletError(error) + " Nothing was paid; you can press Pay again.", "bad");
      });
  }

  // wallet_switchEthereumChain, and wallet_addEthereumChain when the wallet does not know the chain (4902).
  function ensureChain(chainId) {
    var hex = "0x" + chainId.toString(16);
    return provider.request({ method: "eth_chainId" }).then(function (current) {
      if (Number(current) === chainId) return null;
      say("Switch your wallet to the payment network…");
      return provider
        .request({ method: "wallet_switchEthereumChain", params: [{ chainId: hex }] })
        .catch(function (error) {
          if (!error || error.code !== 4902) throw error;
          var known = KNOWN_CHAINS[chainId] || {};
          return provider
            .request({
              method: "wallet_addEthereumChain",
              params: [{
                chainId: hex,
                chainName: known.name || checkout.getAttribute("data-chain-name"),
                nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
                rpcUrls: known.rpc ? [known.rpc] : [],
                blockExplorerUrls: known.explorer ? [known.explorer] : []
              }]
            })
            .then(function () {
              return provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: hex }] });
            });
        });
    });
  }

  // The server verifies the hash on chain before recording it; a node may see the transaction a little
  // after the wallet returns it, so a "not on chain yet" answer is retried a few times.
  function submit(hash, tries) {
    return postJson(paymentUrl, { transactionHash: hash }).then(function (answer) {
      if (answer.ok) return answer;
      if (tries <= 1 || answer.status >= 500 && answer.status !== 503) {
        throw { message: (answer.body && answer.body.message) || "The payment could not be verified." };
      }
      return delay(3000).then(function () {
        return submit(hash, tries - 1);
      });
    });
  }

  function poll() {
    fetch(statusUrl, { headers: { Accept: "application/json" }, cache: "no-store" })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (status) {
        if (status) show(status);
        if (!status || !status.settled) setTimeout(poll, POLL_MS);
      })
      .catch(function () {
        setTimeout(poll, POLL_MS * 2);
      });
  }

  function show(status) {
    var badge = document.querySelector(".badge");
    if (badge && badge.textContent !== status.label) {
      badge.textContent = status.label;
      badge.className = "badge " + status.tone;
    }
    if (!status.settled && !status.submitted) return;
    var section = document.getElementById("pay-section");
    if (!section || section.getAttribute("data-shown") === status.status) return;
    section.setAttribute("data-shown", status.status);
    section.textContent = "";
    var notice = element("div", "notice " + (status.settled ? status.tone : "info"));
    notice.appendChild(element("h2", "", status.settled ? status.label : "Payment submitted")).id = "pay-heading";
    notice.appendChild(element("p", "", status.message));
    if (status.transactionHash) {
      var line = element("p", "", "Transaction ");
      line.appendChild(element("code", "", status.transactionHash));
      notice.appendChild(line);
    }
    section.appendChild(notice);
    if (status.settled && status.redirectUrl && /^https:\/\//.test(status.redirectUrl)) {
      var back = element("a", "button", "Return to shop");
      back.href = status.redirectUrl;
      back.rel = "noreferrer";
      section.appendChild(back);
    }
  }

  function enableCopyButtons() {
    var buttons = document.querySelectorAll("button[data-copy]");
    Array.prototype.forEach.call(buttons, function (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        if (!navigator.clipboard) return;
        navigator.clipboard.writeText(button.getAttribute("data-copy")).then(function () {
          var label = button.textContent;
          button.textContent = "Copied";
          setTimeout(function () {
            button.textContent = label;
          }, 1500);
        });
      });
    });
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  // Token base units (6 decimals) as a decimal, at least two fraction digits: 12500000n -> "12.50".
  function units(value) {
    var text = value.toString().padStart(7, "0");
    var whole = text.slice(0, -6);
    var fraction = text.slice(-6).replace(/0+$/, "");
    return whole + "." + (fraction.length < 2 ? (fraction + "00").slice(0, 2) : fraction);
  }
})();
