"""SANDBOX ONLY: the user's wallet part, played with the provider sandbox's funded development keys.

In production this code does not run on a partner's backend: the frontend hands ``chainActions`` and
``walletAuthorization`` to the user's own wallet, which signs and sends them. Against the local sandbox
(``npm start``, docs/sandbox.md) this module does the same with anvil's public keys, so the whole flow can be driven
from Python:

    manifest = load_manifest(".sandbox/manifest.json")
    user = manifest.user(0)
    submitted_body = execute_prepared(prepared, user.private_key, manifest.chains)
    client.submitted(prepared["attemptId"], submitted_body)

It refuses (:class:`SandboxRefusedError`, before signing anything) a chain the manifest does not list, an RPC URL
that is not on loopback or does not answer as anvil with the manifest's chain id, and a prepared attempt whose wallet
is not the key's account: the keys are public and the sandbox reuses the real chain ids.

Needs the ``sandbox`` extra: ``pip install 'intent-partner[sandbox]'`` (eth-account).
"""

from __future__ import annotations

import ipaddress
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Union
from urllib.parse import urlsplit

import httpx

try:
    from eth_account import Account
    from eth_account.messages import encode_typed_data
    from eth_utils.address import to_checksum_address
except ImportError as error:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        "intent_partner.sandbox needs eth-account: install the SDK with its sandbox extra, "
        "pip install 'intent-partner[sandbox]' (from the repository: pip install -e 'sdks/python[sandbox]')"
    ) from error

from .models import ChainResultInput, PrepareResponse, SubmittedRequest


class SandboxRefusedError(Exception):
    """The sandbox wallet will not act: something is not the local sandbox (nothing was signed or sent)."""


class TransactionRevertedError(Exception):
    """A transaction of a chain action reverted: the wallet part stopped there (later ones were not sent)."""

    def __init__(self, message: str, *, chain_id: int, tx_hash: str, sent: List[ChainResultInput]) -> None:
        super().__init__(message)
        self.chain_id = chain_id
        self.tx_hash = tx_hash
        self.sent = sent
        """Evidence of what was mined before (and including) the revert, per chain."""


@dataclass(frozen=True)
class SandboxChain:
    chain_id: int
    name: str
    rpc_url: str


@dataclass(frozen=True)
class SandboxUser:
    address: str
    private_key: str = field(repr=False)


@dataclass(frozen=True)
class SandboxManifest:
    """The parts of the sandbox manifest (``.sandbox/manifest.json``, written by ``npm start``) used here."""

    path: Path
    url: str
    chains: List[SandboxChain]
    users: List[SandboxUser]
    raw: Dict[str, Any] = field(repr=False)

    def user(self, index: int = 0) -> SandboxUser:
        if not 0 <= index < len(self.users):
            raise SandboxRefusedError(
                f"user {index}: the sandbox has {len(self.users)} funded users (0 to {len(self.users) - 1})"
            )
        return self.users[index]


@dataclass(frozen=True)
class WalletProgress:
    """One step of :func:`execute_prepared`, for printing: ``signed`` then one ``transaction`` per mined one."""

    kind: str
    signature: Optional[str] = None
    chain_id: Optional[int] = None
    index: Optional[int] = None
    """0-based position in the chain action."""
    count: Optional[int] = None
    to: Optional[str] = None
    tx_hash: Optional[str] = None
    block_number: Optional[int] = None
    elapsed: Optional[float] = None
    """Seconds from sending to the receipt."""


def load_manifest(path: Union[str, Path]) -> SandboxManifest:
    """Reads the sandbox manifest; :class:`SandboxRefusedError` when it is missing or is not one."""
    p = Path(path)
    try:
        raw = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise SandboxRefusedError(
            f"no provider sandbox manifest at {p} ({error}). The sandbox wallet signs with public development keys "
            "and only runs against the local sandbox: start it with npm start"
        ) from error
    try:
        chains = [SandboxChain(int(c["chainId"]), str(c.get("name", "")), str(c["rpcUrl"])) for c in raw["chains"]]
        users = [SandboxUser(str(u["address"]), str(u["privateKey"])) for u in raw["wallets"]["users"]]
    except (KeyError, TypeError, ValueError) as error:
        raise SandboxRefusedError(f"{p} is not a provider sandbox manifest (no chains or wallets.users)") from error
    return SandboxManifest(path=p, url=str(raw.get("url", "")), chains=chains, users=users, raw=raw)


def is_loopback_url(url: str) -> bool:
    """Whether an http(s) URL's host is on loopback (127.0.0.0/8, ::1 or localhost)."""
    try:
        parts = urlsplit(url)
        host = parts.hostname
    except ValueError:
        return False
    if parts.scheme not in ("http", "https") or not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class _Rpc:
    """A minimal JSON-RPC client over httpx."""

    def __init__(self, http: httpx.Client, chain: SandboxChain) -> None:
        self.http = http
        self.chain = chain
        self._id = 0

    def call(self, method: str, params: Sequence[Any] = ()) -> Any:
        self._id += 1
        r = self.http.post(
            self.chain.rpc_url, json={"jsonrpc": "2.0", "id": self._id, "method": method, "params": list(params)}
        )
        r.raise_for_status()
        body = r.json()
        if body.get("error"):
            raise RuntimeError(f"chain {self.chain.chain_id}: {method} failed: {body['error']}")
        return body.get("result")


def check_chains(chains: Sequence[SandboxChain], *, http: Optional[httpx.Client] = None) -> None:
    """Refuses unless every chain's RPC URL is on loopback and answers as anvil with the manifest's chain id."""
    own = http is None
    client = http or httpx.Client(timeout=5.0)
    try:
        for chain in chains:
            if not is_loopback_url(chain.rpc_url):
                raise SandboxRefusedError(
                    f"the manifest's RPC for chain {chain.chain_id} ({chain.rpc_url}) is not on loopback: "
                    "refusing to sign with a development key"
                )
            rpc = _Rpc(client, chain)
            try:
                version = rpc.call("web3_clientVersion")
                chain_id = rpc.call("eth_chainId")
            except (httpx.HTTPError, RuntimeError, ValueError) as error:
                raise SandboxRefusedError(
                    f"the sandbox chain {chain.chain_id} at {chain.rpc_url} does not answer ({error}): "
                    "is npm start running?"
                ) from error
            if not isinstance(version, str) or not version.lower().startswith("anvil"):
                raise SandboxRefusedError(
                    f"{chain.rpc_url} is {version!r}, not the sandbox's anvil: refusing to sign with a development key"
                )
            if not isinstance(chain_id, str) or int(chain_id, 16) != chain.chain_id:
                raise SandboxRefusedError(
                    f"{chain.rpc_url} reports chain id {chain_id}, the manifest says {chain.chain_id}"
                )
    finally:
        if own:
            client.close()


_DOMAIN_FIELDS = (
    ("name", "string"),
    ("version", "string"),
    ("chainId", "uint256"),
    ("verifyingContract", "address"),
    ("salt", "bytes32"),
)


def typed_data_for_signing(authorization: Mapping[str, Any]) -> Dict[str, Any]:
    """The EIP-712 message exactly as returned, with the ``EIP712Domain`` type derived from the domain's own fields
    (only ``name`` and ``version`` today: adding a chain id or a verifying contract would make another hash)."""
    domain = dict(authorization["domain"])
    types = {k: [dict(f) for f in v] for k, v in authorization["types"].items() if k != "EIP712Domain"}
    types["EIP712Domain"] = [{"name": n, "type": t} for n, t in _DOMAIN_FIELDS if n in domain]
    return {
        "types": types,
        "primaryType": authorization["primaryType"],
        "domain": domain,
        "message": dict(authorization["message"]),
    }


def sign_wallet_authorization(authorization: Mapping[str, Any], private_key: str) -> str:
    """The 65-byte EIP-712 signature (0x-hex) of a prepare response's ``walletAuthorization``."""
    signable = encode_typed_data(full_message=typed_data_for_signing(authorization))
    signed = Account.sign_message(signable, private_key=private_key)
    return _hex(signed.signature)


def _hex(value: Any) -> str:
    raw = bytes(value)
    return "0x" + raw.hex()


def execute_prepared(
    prepared: PrepareResponse,
    private_key: str,
    chains: Sequence[SandboxChain],
    on_progress: Optional[Callable[[WalletProgress], None]] = None,
    *,
    poll_interval: float = 0.1,
    receipt_timeout: float = 60.0,
    http: Optional[httpx.Client] = None,
) -> SubmittedRequest:
    """What the user's wallet does with a prepare response, then the body to report to ``submitted``.

    1. checks (before signing): every chain action's chain is one of ``chains``, each on loopback and answering as
       anvil with its chain id; the authorization's ``wallet`` is the key's account;
    2. signs ``walletAuthorization`` (EIP-712) exactly as returned;
    3. for each chain action in order, sends its ``transactions`` (or the ``calls`` of a ``wallet_sendCalls``
       action, one by one) as raw signed EIP-1559 transactions (nonce, fees and gas from the node; the returned
       ``gas`` when given), each after the previous one's receipt; a revert stops it
       (:class:`TransactionRevertedError`);
    4. returns ``{"chainResults": [{"chainId", "txHashes"}], "walletAuthorization": {"signature"}}``.
    """
    account = Account.from_key(private_key)
    authorization = prepared.get("walletAuthorization")
    if not authorization:
        raise SandboxRefusedError(f"attempt {prepared.get('attemptId')} carries no walletAuthorization to sign")
    wallet = str(authorization["message"].get("wallet", ""))
    if wallet.lower() != account.address.lower():
        raise SandboxRefusedError(
            f"the attempt's wallet is {wallet}, the key is {account.address}: quote with that key's address"
        )
    by_id = {c.chain_id: c for c in chains}
    actions = list(prepared["chainActions"])
    needed: List[SandboxChain] = []
    for action in actions:
        chain = by_id.get(int(action["chainId"]))
        if chain is None:
            raise SandboxRefusedError(
                f"a chain action is on chain {action['chainId']}, which the sandbox does not run "
                f"(it runs {', '.join(str(c) for c in by_id)}): refusing to send it"
            )
        if chain not in needed:
            needed.append(chain)
    own = http is None
    client = http or httpx.Client(timeout=30.0)
    try:
        check_chains(needed, http=client)
        signature = sign_wallet_authorization(authorization, private_key)
        if on_progress:
            on_progress(WalletProgress(kind="signed", signature=signature))
        results: List[ChainResultInput] = []
        for action in actions:
            chain = by_id[int(action["chainId"])]
            rpc = _Rpc(client, chain)
            txs = action.get("transactions") or action.get("calls") or []
            hashes: List[str] = []
            results.append({"chainId": chain.chain_id, "txHashes": hashes})
            for index, tx in enumerate(txs):
                started = time.monotonic()
                tx_hash = _send_transaction(rpc, account, tx)
                hashes.append(tx_hash)
                receipt = _wait_for_receipt(rpc, tx_hash, poll_interval, receipt_timeout)
                if receipt.get("status") != "0x1":
                    raise TransactionRevertedError(
                        f"transaction {tx_hash} ({index + 1} of {len(txs)}) on chain {chain.chain_id} reverted",
                        chain_id=chain.chain_id,
                        tx_hash=tx_hash,
                        sent=results,
                    )
                if on_progress:
                    on_progress(
                        WalletProgress(
                            kind="transaction",
                            chain_id=chain.chain_id,
                            index=index,
                            count=len(txs),
                            to=str(tx["to"]),
                            tx_hash=tx_hash,
                            block_number=int(receipt["blockNumber"], 16),
                            elapsed=time.monotonic() - started,
                        )
                    )
        return {"chainResults": results, "walletAuthorization": {"signature": signature}}
    finally:
        if own:
            client.close()


def _send_transaction(rpc: _Rpc, account: Any, tx: Mapping[str, Any]) -> str:
    sender = account.address
    value = int(str(tx.get("value") or "0"))
    request = {"from": sender, "to": tx["to"], "data": tx.get("data") or "0x", "value": hex(value)}
    nonce = int(rpc.call("eth_getTransactionCount", [sender, "pending"]), 16)
    block = rpc.call("eth_getBlockByNumber", ["latest", False])
    base_fee = int(block.get("baseFeePerGas") or "0x0", 16)
    priority = int(rpc.call("eth_maxPriorityFeePerGas"), 16)
    given_gas = tx.get("gas")
    gas = int(str(given_gas)) if given_gas not in (None, "", "0") else int(rpc.call("eth_estimateGas", [request]), 16)
    signed = account.sign_transaction(
        {
            "type": 2,
            "chainId": rpc.chain.chain_id,
            "nonce": nonce,
            "to": to_checksum_address(str(tx["to"])),
            "value": value,
            "data": request["data"],
            "gas": gas,
            "maxPriorityFeePerGas": priority,
            "maxFeePerGas": base_fee * 2 + priority,
        }
    )
    raw = signed.raw_transaction
    return str(rpc.call("eth_sendRawTransaction", [_hex(raw)]))


def _wait_for_receipt(rpc: _Rpc, tx_hash: str, poll_interval: float, timeout: float) -> Dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        receipt = rpc.call("eth_getTransactionReceipt", [tx_hash])
        if receipt:
            return dict(receipt)
        if time.monotonic() >= deadline:
            raise TimeoutError(f"no receipt for {tx_hash} on chain {rpc.chain.chain_id} after {timeout:.0f} s")
        time.sleep(poll_interval)
