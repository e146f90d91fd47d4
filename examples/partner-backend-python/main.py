"""The example partner backend in Python, configured by its environment (README.md):

sdks/python/.venv/bin/python examples/partner-backend-python/main.py
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Dict

from intent_partner import Client, FileIdempotencyStore, PrepareResponse
from partner_backend import PartnerBackend, ProcessedEvents


def sandbox_wallet(manifest_path: str, user_index: int):  # type: ignore[no-untyped-def]
    """SANDBOX ONLY: plays the user's wallet with the sandbox's funded development account.

    In production this code does not exist on your backend: the frontend hands `chainActions` and
    `walletAuthorization` to the user's own wallet, which sends the transactions and signs the EIP-712
    authorization; then the frontend posts the hashes and the signature to POST /orders/{attemptId}/submitted.
    A private key never reaches a partner's backend.
    """
    from intent_partner.sandbox import execute_prepared, load_manifest

    def pay(prepared: PrepareResponse) -> Dict[str, Any]:
        # Read at each payment: `npm start` rewrites the manifest (new ports) every time it starts.
        manifest = load_manifest(manifest_path)
        user = manifest.user(user_index)
        return dict(execute_prepared(prepared, user.private_key, manifest.chains))

    return pay


def main() -> int:
    env = os.environ
    partner_id = env.get("PARTNER_ID") or "demo-partner"
    secret = env.get("PARTNER_SECRET") or "dev-only-secret-do-not-use-in-production"
    data_dir = Path(env.get("EXAMPLE_DATA_DIR") or ".partner-backend/python")
    client = Client(
        env.get("SERVICE_URL") or "http://127.0.0.1:3000",
        partner_id,
        secret,
        auth_version=1 if env.get("PARTNER_AUTH_VERSION") == "1" else 2,
        idempotency_store=FileIdempotencyStore(data_dir / "idempotency"),
    )
    manifest = env.get("SANDBOX_MANIFEST")
    backend = PartnerBackend(
        client,
        partner_id,
        secret,
        ProcessedEvents(data_dir / "processed-webhooks.txt"),
        sandbox_wallet=sandbox_wallet(manifest, int(env.get("SANDBOX_USER") or "0")) if manifest else None,
    )
    port = int(env.get("EXAMPLE_PORT") or "4000")
    try:
        server = backend.http_server(port)
    except OSError as error:
        print(
            f"port {port} on 127.0.0.1 is taken ({error.strerror}); most likely npm start's webhook receiver holds "
            "it. Start this backend first, or run it on another port with EXAMPLE_PORT.",
            file=sys.stderr,
        )
        return 1
    print(f"listening on http://127.0.0.1:{server.server_address[1]}", flush=True)
    print(
        f"partner {partner_id}; "
        + (
            f"SANDBOX wallet (users[{env.get('SANDBOX_USER', '0')}] of {manifest}) on POST /sandbox/orders/{{id}}/pay"
            if manifest
            else "no sandbox wallet (set SANDBOX_MANIFEST to enable it)"
        ),
        flush=True,
    )
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        client.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
