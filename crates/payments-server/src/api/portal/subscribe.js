// The subscribe page's one script (served from /subscribe/assets/subscribe.js, allowed by `script-src 'self'`).
// The customer connects a browser wallet (EIP-6963 discovery, window.ethereum as a fallback); Subscribe asks
// the server for the plan's spend permission document, sends the token approval when the server says it is
// needed (eth_sendTransaction), has the wallet sign the document (eth_signTypedData_v4) and creates the
// subscription; an active subscription can be canceled by signing CancelSubscription. Same-origin requests only.
(function () {
  "use strict";

  var APPROVE = "0x095ea7b3"; // approve(address,uint256)
  var RECEIPT_POLLS = 60;
  var box = document.getElementById("subscribe");
  if (!box) return;
  var planId = box.getAttribute("data-plan-id");
  var chainId = Number(box.getAttribute("data-chain-id"));
  var shared = window.PaymentsWallet;
  var getJson = shared.getJson;
  var postJson = shared.postJson;
  var word = shared.word;
  var isRefusal = shared.isRefusal;
  var walletError = shared.walletError;
  var delay = shared.delay;
  var provider = null;
  var account = null;
  var subscription = null;
  var busy = false;

  box.hidden = false;
  $("[data-action=connect]").addEventListener("click", connect);
  $("[data-action=subscribe]").addEventListener("click", subscribe);
  $("[data-action=cancel]").addEventListener("click", cancel);

  function $(selector) {
    return box.querySelector(selector);
  }

  function url(name) {
    return box.getAttribute("data-" + name + "-url");
  }

  function say(text, kind) {
    var message = $(".checkout-message");
    message.textContent = text;
    message.className = "checkout-message" + (kind ? " " + kind : "");
  }

  // Several wallets: the customer picks one from a list; one: it is used; none announced: window.ethereum.
  function connect() {
    if (busy) return;
    if (provider) return requestAccounts();
    var found = shared.choose($(".wallet-list"), say, function (chosen) {
      provider = chosen;
      requestAccounts();
    });
    if (!found) say("No browser wallet found. Open this page in a browser with a wallet.", "warn");
  }

  function requestAccounts() {
    busy = true;
    say("Waiting for your wallet…");
    provider
      .request({ method: "eth_requestAccounts" })
      .then(function (accounts) {
        if (!accounts || !accounts.length) throw { code: 4001 };
        account = accounts[0];
        return getJson(url("status") + "?customer=" + encodeURIComponent(account));
      })
      .then(function (answer) {
        busy = false;
        $("[data-action=connect]").hidden = true;
        $(".checkout-account").textContent = "Connected: " + account;
        say("");
        var mine = ((answer && answer.subscriptions) || []).filter(function (candidate) {
          return candidate.planId === planId && candidate.status !== "canceled";
        });
        if (mine.length) return showActive(mine[0]);
        $("[data-action=subscribe]").hidden = false;
      })
      .catch(function (error) {
        busy = false;
        say(isRefusal(error) ? "The wallet did not connect. You can try again." : walletError(error), "warn");
      });
  }

  function subscribe() {
    if (busy || !account) return;
    busy = true;
    var offer = null;
    ensureChain()
      .then(function () {
        say("Preparing the permission…");
        return getJson(url("permission") + "?customer=" + encodeURIComponent(account));
      })
      .then(function (answer) {
        if (!answer || !answer.typedData) throw { message: (answer && answer.message) || "the plan cannot be subscribed to" };
        offer = answer;
        if (!offer.approval.needed) return null;
        say("Approve the subscription's token allowance in your wallet…");
        return provider
          .request({
            method: "eth_sendTransaction",
            params: [{
              from: account,
              to: offer.approval.token,
              data: APPROVE + word(offer.approval.spender) + word(BigInt(offer.approval.amount).toString(16))
            }]
          })
          .then(function (hash) {
            say("Waiting for the approval to be confirmed…");
            return mined(hash, RECEIPT_POLLS);
          });
      })
      .then(function () {
        say("Sign the spend permission in your wallet…");
        return provider.request({
          method: "eth_signTypedData_v4",
          params: [account, JSON.stringify(offer.typedData)]
        });
      })
      .then(function (signature) {
        say("Creating your subscription…");
        return postJson(url("create"), {
          planId: planId,
          customerWallet: account,
          permissionSignature: signature,
          permissionData: offer.typedData.message
        });
      })
      .then(function (answer) {
        busy = false;
        if (!answer.ok) throw { message: (answer.body && answer.body.message) || "the subscription was refused" };
        $("[data-action=subscribe]").hidden = true;
        showActive(answer.body.subscription);
        say("");
      })
      .catch(function (error) {
        busy = false;
        if (isRefusal(error)) return say("You declined in your wallet. Nothing was signed up; you can press Subscribe again.", "warn");
        say(walletError(error) + " You are not subscribed; you can press Subscribe again.", "bad");
      });
  }

  function cancel() {
    if (busy || !subscription) return;
    busy = true;
    var document712 = {
      types: {
        EIP712Domain: [
          { name: "name", type: "string" },
          { name: "version", type: "string" },
          { name: "chainId", type: "uint256" }
        ],
        CancelSubscription: [
          { name: "subscriptionId", type: "string" },
          { name: "wallet", type: "address" }
        ]
      },
      primaryType: "CancelSubscription",
      domain: { name: "Merchant Payments Subscriptions", version: "1", chainId: chainId },
      message: { subscriptionId: subscription.subscriptionId, wallet: account }
    };
    say("Sign the cancellation in your wallet…");
    provider
      .request({ method: "eth_signTypedData_v4", params: [account, JSON.stringify(document712)] })
      .then(function (signature) {
        return postJson(url("cancel"), {
          subscriptionId: subscription.subscriptionId,
          wallet: account,
          signature: signature
        });
      })
      .then(function (answer) {
        busy = false;
        if (!answer.ok) throw { message: (answer.body && answer.body.message) || "the cancellation was refused" };
        subscription = null;
        $("[data-action=cancel]").hidden = true;
        var state = document.getElementById("subscription-state");
        state.className = "notice info";
        state.textContent = "";
        state.appendChild(element("h2", "Canceled")).id = "subscription-heading";
        state.appendChild(element("p", "You will not be charged again."));
        say("");
      })
      .catch(function (error) {
        busy = false;
        if (isRefusal(error)) return say("You declined in your wallet. The subscription is still active.", "warn");
        say(walletError(error) + " The subscription is still active.", "bad");
      });
  }

  function showActive(active) {
    subscription = active;
    var state = document.getElementById("subscription-state");
    state.className = "notice good";
    state.textContent = "";
    state.appendChild(element("h2", "Active")).id = "subscription-heading";
    var next = active.nextChargeAt ? new Date(active.nextChargeAt) : null;
    var when = next ? next.toISOString().slice(0, 16).replace("T", " ") + " UTC" : "not scheduled";
    state.appendChild(element("p", "Next charge: " + when)).className = "next-charge";
    state.appendChild(element("p", "Subscription " + active.subscriptionId));
    state.hidden = false;
    $("[data-action=cancel]").hidden = false;
  }

  // The approval must be mined before the first charge can pull the tokens; the wallet's node tells.
  function mined(hash, tries) {
    return provider.request({ method: "eth_getTransactionReceipt", params: [hash] }).then(function (receipt) {
      if (receipt && receipt.status === "0x1") return receipt;
      if (receipt) throw { message: "the approval " + hash + " failed" };
      if (tries <= 1) throw { message: "the approval " + hash + " was not confirmed in time" };
      return delay(2000).then(function () {
        return mined(hash, tries - 1);
      });
    });
  }

  function ensureChain() {
    var hex = "0x" + chainId.toString(16);
    return provider.request({ method: "eth_chainId" }).then(function (current) {
      if (Number(current) === chainId) return null;
      say("Switch your wallet to " + box.getAttribute("data-chain-name") + "…");
      return provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId: hex }] });
    });
  }

  function element(tag, text) {
    var node = document.createElement(tag);
    node.textContent = text;
    return node;
  }
})();
