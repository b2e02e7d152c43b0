// Runs the official libraries for webhook-verify's interoperability tests (tests/webhook_verify/interop.rs).
// Reads a JSON array of requests on stdin and writes a JSON array of answers, one per request:
//   {"library": "standardwebhooks"|"svix", "op": "sign", "secret", "id", "timestamp": <unix s>, "body"}
//     -> {"signature": "v1,..."}
//   {"library": ..., "op": "verify", "secret", "headers": {name: value}, "body"}
//     -> {"valid": true} | {"valid": false, "error": "..."}
// Bodies are UTF-8 text: both libraries sign and verify strings.
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";

const libraries = { standardwebhooks: StandardWebhook, svix: SvixWebhook };

function answer(request) {
  const Library = libraries[request.library];
  if (!Library) {
    throw new Error(`unknown library ${request.library}`);
  }
  const webhook = new Library(request.secret);
  if (request.op === "sign") {
    return { signature: webhook.sign(request.id, new Date(request.timestamp * 1000), request.body) };
  }
  if (request.op === "verify") {
    try {
      webhook.verify(request.body, request.headers);
      return { valid: true };
    } catch (error) {
      return { valid: false, error: String(error.message ?? error) };
    }
  }
  throw new Error(`unknown op ${request.op}`);
}

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  input += chunk;
});
process.stdin.on("end", () => {
  const requests = JSON.parse(input);
  process.stdout.write(JSON.stringify(requests.map(answer)));
});
