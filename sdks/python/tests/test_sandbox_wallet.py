"""The sandbox wallet part: the EIP-712 signature equals the TypeScript wallet part's (viem), the safety checks refuse
what is not the local sandbox before signing, and execute_prepared sends raw EIP-1559 transactions on a real anvil
(stopping at a revert)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _server import Reply, ScriptedServer, Seen  # noqa: E402
from _support import PACKAGE_ROOT, load  # noqa: E402
from eth_account import Account  # noqa: E402
from eth_account.messages import encode_typed_data  # noqa: E402
from intent_partner.sandbox import (  # noqa: E402
    SandboxChain,
    SandboxRefusedError,
    TransactionRevertedError,
    WalletProgress,
    check_chains,
    execute_prepared,
    is_loopback_url,
    load_manifest,
    sign_wallet_authorization,
    typed_data_for_signing,
)

# sdks/vectors/wallet-authorization.json: a captured walletAuthorization signed by viem (the TypeScript wallet part).
FIXTURE = load("wallet-authorization")
USER0 = FIXTURE["cases"][0]


@pytest.mark.parametrize("case", FIXTURE["cases"], ids=[c["name"] for c in FIXTURE["cases"]])
def test_signature_equals_viem(case: Dict[str, Any]) -> None:
    authorization = case["walletAuthorization"]
    assert sign_wallet_authorization(authorization, case["privateKey"]) == case["signature"]
    signable = encode_typed_data(full_message=typed_data_for_signing(authorization))
    assert Account.recover_message(signable, signature=case["signature"]) == case["address"]
    # Only the domain's own fields: a chainId added to the domain makes another signature.
    changed = json.loads(json.dumps(authorization))
    changed["domain"]["chainId"] = 1
    assert sign_wallet_authorization(changed, case["privateKey"]) != case["signature"]


@pytest.mark.parametrize(
    "url,ok",
    [
        ("http://127.0.0.1:8545", True),
        ("http://127.9.8.7:1", True),
        ("http://localhost:8545", True),
        ("http://[::1]:8545", True),
        ("https://rpc.example.org", False),
        ("http://10.0.0.1:8545", False),
        ("http://127.0.0.1.example.org", False),
        ("ftp://127.0.0.1", False),
        ("not a url", False),
    ],
)
def test_loopback(url: str, ok: bool) -> None:
    assert is_loopback_url(url) is ok


def test_a_missing_or_foreign_manifest_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SandboxRefusedError, match="no provider sandbox manifest"):
        load_manifest(tmp_path / "missing.json")
    (tmp_path / "other.json").write_text('{"chains": 1}')
    with pytest.raises(SandboxRefusedError, match="not a provider sandbox manifest"):
        load_manifest(tmp_path / "other.json")


def rpc_server(client_version: str, chain_id: int) -> ScriptedServer:
    def handler(seen: Seen) -> Reply:
        request = json.loads(seen.body)
        result = {"web3_clientVersion": client_version, "eth_chainId": hex(chain_id)}.get(request["method"])
        return Reply(200, {"jsonrpc": "2.0", "id": request["id"], "result": result})

    return ScriptedServer(handler=handler)


def test_check_chains_refuses_what_is_not_the_sandboxs_anvil() -> None:
    with pytest.raises(SandboxRefusedError, match="not on loopback"):
        check_chains([SandboxChain(1, "ethereum", "https://eth.example.org")])
    with rpc_server("Geth/v1.14", 1) as server:
        with pytest.raises(SandboxRefusedError, match="not the sandbox's anvil"):
            check_chains([SandboxChain(1, "ethereum", server.url)])
    with rpc_server("anvil/v1.7.1", 10) as server:
        with pytest.raises(SandboxRefusedError, match="reports chain id 0xa, the manifest says 1"):
            check_chains([SandboxChain(1, "ethereum", server.url)])
        check_chains([SandboxChain(10, "optimism", server.url)])  # the right id: accepted


def prepared_for(wallet: str, chain_id: int, transactions: List[Dict[str, Any]]) -> Dict[str, Any]:
    authorization = json.loads(json.dumps(USER0["walletAuthorization"]))
    authorization["message"]["wallet"] = wallet
    return {
        "attemptId": authorization["message"]["attemptId"],
        "walletAuthorization": authorization,
        "chainActions": [{"chainId": chain_id, "transactions": transactions, "calls": None}],
    }


def test_refuses_before_signing_or_sending() -> None:
    with rpc_server("anvil/v1.7.1", 1) as server:
        chains = [SandboxChain(1, "ethereum", server.url)]
        other_key = FIXTURE["cases"][1]["privateKey"]
        with pytest.raises(SandboxRefusedError, match="the attempt's wallet is"):
            execute_prepared(prepared_for(USER0["address"], 1, []), other_key, chains)  # type: ignore[arg-type]
        with pytest.raises(SandboxRefusedError, match="which the sandbox does not run"):
            execute_prepared(prepared_for(USER0["address"], 8453, []), USER0["privateKey"], chains)  # type: ignore[arg-type]
        assert server.seen == []


# --- on a real anvil --------------------------------------------------------------------------------------------------
def anvil_binary() -> Optional[str]:
    if os.environ.get("ANVIL_BIN"):
        return os.environ["ANVIL_BIN"]
    modules = PACKAGE_ROOT.parent.parent / "node_modules" / "@foundry-rs"
    for candidate in sorted(modules.glob("anvil-*/bin/anvil")) if modules.is_dir() else []:
        return str(candidate)
    return shutil.which("anvil")


@pytest.fixture
def anvil() -> Iterator[SandboxChain]:
    binary = anvil_binary()
    if binary is None:
        pytest.skip("no anvil binary (ANVIL_BIN, node_modules/@foundry-rs/anvil-*, or PATH)")
    process = subprocess.Popen(
        [binary, "--host", "127.0.0.1", "--port", "0", "--chain-id", "8453"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        url = None
        assert process.stdout is not None
        for line in process.stdout:
            found = re.search(r"Listening on (127\.0\.0\.1:\d+)", line)
            if found:
                url = f"http://{found.group(1)}"
                break
        assert url, "anvil did not start"
        yield SandboxChain(8453, "base", url)
    finally:
        process.terminate()
        process.wait(timeout=10)


def rpc(chain: SandboxChain, method: str, params: List[Any]) -> Any:
    body = httpx.post(chain.rpc_url, json={"jsonrpc": "2.0", "id": 1, "method": method, "params": params}).json()
    assert "error" not in body, body
    return body["result"]


REVERTER_INIT_CODE = "0x6460006000fd6000526005601bf3"  # deploys runtime code PUSH1 0 PUSH1 0 REVERT


def test_execute_prepared_on_a_real_anvil(anvil: SandboxChain) -> None:
    to = FIXTURE["cases"][1]["address"]
    before = int(rpc(anvil, "eth_getBalance", [to, "latest"]), 16)
    transactions = [
        {"to": to, "data": "0x", "value": "1000000000000000"},  # gas estimated by the node
        {"to": to.lower(), "data": "0x", "value": "2", "gas": "21000"},  # the returned gas
    ]
    steps: List[WalletProgress] = []
    body = execute_prepared(
        prepared_for(USER0["address"], 8453, transactions),  # type: ignore[arg-type]
        USER0["privateKey"],
        [anvil],
        on_progress=steps.append,
    )
    hashes = body["chainResults"][0]["txHashes"]
    assert body["chainResults"][0]["chainId"] == 8453 and len(hashes) == 2
    assert body["walletAuthorization"]["signature"] == sign_wallet_authorization(
        prepared_for(USER0["address"], 8453, [])["walletAuthorization"], USER0["privateKey"]
    )
    assert [s.kind for s in steps] == ["signed", "transaction", "transaction"]
    assert int(rpc(anvil, "eth_getBalance", [to, "latest"]), 16) == before + 1000000000000002
    for tx_hash in hashes:
        tx = rpc(anvil, "eth_getTransactionByHash", [tx_hash])
        assert tx["type"] == "0x2" and tx["from"].lower() == USER0["address"].lower()  # raw signed EIP-1559
    assert rpc(anvil, "eth_getTransactionByHash", [hashes[1]])["gas"] == hex(21000)


def test_a_revert_stops_the_wallet_part(anvil: SandboxChain) -> None:
    deployer = rpc(anvil, "eth_accounts", [])[9]
    tx = rpc(anvil, "eth_sendTransaction", [{"from": deployer, "data": REVERTER_INIT_CODE}])
    reverter = rpc(anvil, "eth_getTransactionReceipt", [tx])["contractAddress"]
    to = FIXTURE["cases"][1]["address"]
    transactions = [
        {"to": reverter, "data": "0x01", "value": "0", "gas": "50000"},
        {"to": to, "data": "0x", "value": "5"},  # never sent
    ]
    nonce_before = rpc(anvil, "eth_getTransactionCount", [USER0["address"], "latest"])
    with pytest.raises(TransactionRevertedError) as caught:
        execute_prepared(prepared_for(USER0["address"], 8453, transactions), USER0["privateKey"], [anvil])  # type: ignore[arg-type]
    assert caught.value.chain_id == 8453
    assert int(rpc(anvil, "eth_getTransactionCount", [USER0["address"], "latest"]), 16) == int(nonce_before, 16) + 1
