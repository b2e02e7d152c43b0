// What the hosted pages' scripts share (served from /portal/assets/wallet.js, loaded before checkout.js and
// subscribe.js): EIP-6963 wallet discovery and choice, JSON requests to the page's own origin, ABI words, and
// how a wallet's errors are told to the person. Defines window.PaymentsWallet; nothing else.
window.PaymentsWallet = (function () {
  "use strict";

  var wallets = []; // EIP-6963 announcements: { info, provider }

  window.addEventListener("eip6963:announceProvider", function (event) {
    var detail = event.detail;
    if (!detail || !detail.provider || !detail.info) return;
    for (var i = 0; i < wallets.length; i++) {
      if (wallets[i].info.uuid === detail.info.uuid) return;
    }
    wallets.push(detail);
  });
  window.dispatchEvent(new Event("eip6963:requestProvider"));

  // Several wallets: the person picks one from `list` (then `use(provider)`); one: it is used; none
  // announced: window.ethereum. Answers false when there is no wallet at all (the caller says what to do).
  function choose(list, say, use) {
    if (wallets.length > 1) {
      list.textContent = "";
      wallets.forEach(function (wallet) {
        var item = document.createElement("li");
        var button = document.createElement("button");
        button.type = "button";
        button.className = "button secondary";
        button.textContent = wallet.info.name;
        button.addEventListener("click", function () {
          list.hidden = true;
          use(wallet.provider);
        });
        item.appendChild(button);
        list.appendChild(item);
      });
      list.hidden = false;
      say("Choose a wallet.");
      return true;
    }
    var provider = (wallets[0] && wallets[0].provider) || window.ethereum || null;
    if (!provider) return false;
    use(provider);
    return true;
  }

  function getJson(url) {
    return fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" }).then(function (response) {
      return response.json();
    });
  }

  function postJson(url, body) {
    return fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(body),
      cache: "no-store"
    }).then(function (response) {
      return response
        .json()
        .catch(function () {
          return null;
        })
        .then(function (json) {
          return { ok: response.ok, status: response.status, body: json };
        });
    });
  }

  // One 32-byte ABI word from an address or a hex number.
  function word(hex) {
    var digits = String(hex).replace(/^0x/, "").toLowerCase();
    return "0".repeat(64 - digits.length) + digits;
  }

  function isRefusal(error) {
    return !!error && (error.code === 4001 || error.code === "ACTION_REJECTED");
  }

  function walletError(error) {
    var text = error && (error.message || (error.data && error.data.message));
    return text ? "The wallet answered: " + text + "." : "The wallet could not complete the request.";
  }

  function delay(ms) {
    return new Promise(function (resolve) {
      setTimeout(resolve, ms);
    });
  }

  return {
    choose: choose,
    getJson: getJson,
    postJson: postJson,
    word: word,
    isRefusal: isRefusal,
    walletError: walletError,
    delay: delay
  };
})();
