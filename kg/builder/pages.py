"""Which pages the last build wrote, and from what: a rebuild redraws only the pages whose
view changed. The views (`kg.export.views`) give each page's `View`; drawing them, here or
in forked workers, and keeping those that did not change is this layer's.

A page is kept as it is when its view has the digest it had in the last build into the same
exports directory (`View.digest`: everything the page shows) and the memo is to be trusted
(`kg.builder.memo`: the same code, the file as that build left it). Anything else, or no memo at
all, and the page is drawn again. A paper's or entity's page far from every change in the
graph (`kg.builder.page_scope`) is kept without its view being gathered at all.
"""

from __future__ import annotations

import logging
import marshal
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path

from kg.builder import memo
from kg.builder.page_scope import near_changes, node_states
from kg.export.views import Page, Pages, Signatures, View
from kg.processes import Forked, ForkedError, can_fork, fork_map

log = logging.getLogger(__name__)

#: a rebuild gathers fewer pages than this in this process, not in forked workers: at
#: 25,000 abstracts, one abstract changed, 2,900 pages gathered (690 drawn) took 3.4 s of
#: wall and CPU time here, 3.5 s and 5.3 s of CPU in two workers
FORK_FROM = 5000
#: a page's digest (None for a file given as it is) and content (None: the file is current)
Drawn = tuple[str | None, bytes | None]


class PageMemo:
    """The digest, size and modification time of each page a build wrote.

    Args:
        path: the memo's file; None remembers nothing (every page is drawn).
        out: the exports directory the pages are in.
    """

    def __init__(self, path: Path | None, out: Path) -> None:
        self.path = path
        self.out = out
        self._root = str(out)  # pages by name, not by Path: a build draws 29,000
        data = memo.load(path)
        pages, states = data.get("pages"), data.get("states")
        self._before: dict[str, list] = pages if isinstance(pages, dict) else {}
        self._now: dict[str, str] = {}
        #: each node's state in the last build and in this one (`page_scope.node_states`)
        self.states_before: dict[str, str] | None = states if isinstance(states, dict) else None
        self.states: dict[str, str] | None = None
        self.kept = 0  #: pages not drawn again

    @classmethod
    def in_cache(cls, cache_dir: Path, out: Path) -> PageMemo:
        """The memo of the exports directory `out`, kept under `cache_dir`."""
        return cls(memo.memo_path(cache_dir, "pages", out), out)

    def current(self, name: str, digest: str) -> bool:
        """Whether the page `name` (relative to the exports directory) is the one a view of
        this digest draws. Reads only: a worker process may ask it."""
        return self.unchanged(name) == digest

    def unchanged(self, name: str) -> str | None:
        """The digest the page `name` had in the last build, when its file is as that build
        left it (else None)."""
        before = self._before.get(name)
        if not isinstance(before, list) or not before or not isinstance(before[0], str):
            return None
        if memo.stamp(os.path.join(self._root, name)) != before[1:]:
            return None
        return before[0]

    def remember(self, name: str, digest: str, kept: bool) -> None:
        """Note the page's digest for the next build, and whether it was kept as it was."""
        self._now[name] = digest
        self.kept += kept

    def adopt(self, now: dict[str, str], kept: int, states: dict[str, str] | None) -> None:
        """Take over what a child drawing the pages noted in its copy of this memo
        (`views_ahead`): each page's digest, how many were kept, each node's state."""
        self._now, self.kept, self.states = now, kept, states

    def noted(self) -> tuple[dict[str, str], int, dict[str, str] | None]:
        """What `adopt` takes."""
        return self._now, self.kept, self.states

    def save(self, placed: Mapping[Path, os.stat_result] | None = None) -> None:
        """Remember this build's pages, once they are in place (after the commit): each
        one's stamp as `placed` has it (`ExportWriter.placed`, as `out / name`: its
        commit has just taken every file's stat, 29,000 at 25,000 abstracts), else read."""
        pages = {}
        # by path, not Path: making 29,000 Paths costs more than reading their stats
        stats = {str(path): stat for path, stat in placed.items()} if placed else {}
        prefix = str(self.out / "_")[:-1]  # as a Path writes `out / name` ("." none)
        for name, digest in sorted(self._now.items()):
            stat = stats.get(prefix + name)
            if stat is not None:
                pages[name] = [digest, stat.st_size, stat.st_mtime_ns]
                continue
            stamp = memo.stamp(os.path.join(self._root, name))
            if stamp is not None:
                pages[name] = [digest, *stamp]
        data: dict[str, object] = {"pages": pages}
        if self.states is not None:
            data["states"] = self.states
        memo.save(self.path, data)


def draw(name: str, page: Callable[[], View | bytes], before: PageMemo) -> Drawn:
    """The page `name`: its view's digest (None for a file given as it is) and its content,
    or None for content when the file in the exports is already what the view draws
    (`before`): gathering a view costs a fifth of drawing it."""
    view = page()
    if not isinstance(view, View):
        return None, view
    digest = view.digest()
    if before.current(name, digest):
        return digest, None
    return digest, view.render().encode("utf-8")


def signs_ahead(pages: Sequence[Page], before: PageMemo, workers: int) -> Forked | None:
    """A first build's signature and JSON of every node (`sign_all` with `encode`), made in
    one forked child while the build writes its RDF and extractions.jsonl, for `draw_all`
    to take: the page workers need them all, and two workers made them after the RDF
    (5 s of CPU at 25,000 abstracts) while a core stood idle during it. None where
    `draw_all` would not sign every node ahead: one worker, processes that cannot fork, no
    page of a paper or entity, or a rebuild (which keeps most pages: `views_ahead`)."""
    signatures = _signed_before_drawing(pages, before, workers)
    if signatures is None:
        return None
    return Forked(lambda: marshal.dumps(_sign_every(signatures)))


#: the most a rebuild's child (`views_ahead`) sends back of the pages it drew: past it (a
#: change that redraws many pages), the build draws them itself
AHEAD_BYTES = 64 * 2**20


def views_ahead(
    make: Callable[[], Sequence[Page]], before: PageMemo, workers: Callable[[int], int]
) -> Forked | None:
    """A rebuild's pages, listed (`make`) and drawn in a forked child while the build
    writes its RDF and extractions.jsonl, for `drawn_ahead` to take: at 25,000 abstracts,
    making the NetworkX graph, listing the pages, comparing every node's state and drawing
    the few pages that changed took 3.3 s of a 12 s rebuild, one core standing idle.
    `workers` gives how many page workers a number of pages calls for: where that is more
    than one, the child, which cannot fork them, hands the drawing back. None where
    nothing is kept (a first build, no cache) or processes cannot fork."""
    if before.path is None or before.states_before is None or not can_fork():
        return None
    return Forked(lambda: _draw_ahead(make, before, workers))


def _draw_ahead(
    make: Callable[[], Sequence[Page]], before: PageMemo, workers: Callable[[int], int]
) -> bytes:
    """Run in the child of `views_ahead`: each page's name and content (None: kept), and
    what the memo noted, marshalled; or, where the build draws the pages itself
    (`WorkersNeededError`, or more than `AHEAD_BYTES` drawn), None and the node states
    made, for the build to take rather than make again."""
    pages = make()
    drawn: list[tuple[str, bytes | None]] = []
    size = 0
    try:
        for name, content in draw_all(pages, before, workers(len(pages)), in_child=True):
            size += len(content) if content is not None else 0
            if size > AHEAD_BYTES:
                break
            drawn.append((name, content))
        else:
            return marshal.dumps((drawn, *before.noted()))
    except WorkersNeededError:
        pass
    return marshal.dumps((None, before.states))  # handed back


def drawn_ahead(ahead: Forked | None, before: PageMemo) -> list[tuple[str, bytes | None]] | None:
    """The pages the child of `views_ahead` drew, in order, with what it noted in its copy
    of `before` taken over; None where none was started, it failed, or it handed the
    drawing back (then with the node states it made taken over): the build then draws the
    pages itself."""
    made = _reply(ahead, "the pages are drawn here")
    if made is None:
        return None
    reply = marshal.loads(made)
    del made  # a rebuild that changed many pages sent up to AHEAD_BYTES of them
    if reply[0] is None:
        log.debug("the pages are drawn here: the child handed them back")
        before.states = reply[1]
        return None
    drawn, now, kept, states = reply
    before.adopt(now, kept, states)
    return drawn


def _signed_before_drawing(
    pages: Sequence[Page], before: PageMemo, workers: int
) -> Signatures | None:
    """The signatures of a build that signs every node before its page workers fork (a
    first build, forking workers, pages of papers and entities: nearly every page is
    drawn), or None."""
    if workers < 2 or not can_fork() or before.states_before is not None:
        return None
    return pages.signatures if isinstance(pages, Pages) else None


def _sign_every(signatures: Signatures) -> list[tuple[str, str, tuple[str, str] | None]]:
    """Each node's signature and JSON (`Signatures.made_with_json`), node by node."""
    return [(node, *signatures.made_with_json(node)) for node in sorted(signatures.graph.nodes)]


def _signed(signs: Forked | None) -> dict[str, tuple[str, tuple[str, str] | None]] | None:
    """What the child of `signs_ahead` made, by node, or None (none was started, or it
    failed: the nodes are then signed by `sign_all`)."""
    made = _reply(signs, "the nodes are signed again")
    if made is None:
        return None
    return {node: (signature, json) for node, signature, json in marshal.loads(made)}


def _reply(child: Forked | None, otherwise: str) -> bytes | None:
    """What a child started ahead sent back, or None: none was started, or it failed (then
    `otherwise` is logged: what the build does instead)."""
    if child is None:
        return None
    try:
        return child.wait()
    except ForkedError as error:
        log.debug("%s (%s)", otherwise, error)
        return None


class WorkersNeededError(Exception):
    """Raised by `draw_all` in a child that cannot fork page workers (`views_ahead`), where
    the pages left to draw call for them: the build draws them itself."""


def draw_all(
    pages: Sequence[Page],
    before: PageMemo,
    workers: int = 1,
    signs: Forked | None = None,
    in_child: bool = False,
) -> Iterator[tuple[str, bytes | None]]:
    """Each page's name and content, in order (None: keep the file as it is), drawn in this
    process or, with `workers` > 1 where processes can fork, in that many worker
    processes, which inherit the graph instead of receiving it, and the signature of
    every node (`sign_all`; made by `signs`, from `signs_ahead`, when given). A paper's or
    entity's page far from every change is kept without its view being gathered
    (`_settled`); a rebuild that has fewer than `FORK_FROM` pages left to gather draws
    them here. Remembers each digest, and each node's state, in `before`. `in_child`: it
    runs in a child that may not fork workers (`views_ahead`), which raises
    `WorkersNeededError` where it would."""
    forked = workers > 1 and can_fork()
    signatures = pages.signatures if isinstance(pages, Pages) else None
    # a rebuild (the last build's states known) keeps most pages (`_settled`): its workers
    # are forked, if at all, once it knows how many pages are left to draw
    rebuild = before.states_before is not None
    if (every := _signed_before_drawing(pages, before, workers)) is not None:
        if in_child:
            raise WorkersNeededError("every node to sign in workers")
        signed = _signed(signs)
        if signed is not None:
            every.adopt_with_json(signed)
        else:
            sign_all(every, workers, encode=True)
    # the node states made by a child that handed the drawing back (`drawn_ahead`), whose
    # signatures stayed there
    signed_elsewhere = before.states is not None
    if signatures is not None and before.path is not None and not signed_elsewhere:
        extras = pages.extras if isinstance(pages, Pages) else {}  # --no-cache: none
        # signing every node on the way, for the page workers forked next to inherit
        before.states = node_states(signatures.graph, signatures, extras)
    settled = _settled(pages, before)
    todo = [i for i, (name, _) in enumerate(pages) if name not in settled]
    if forked and rebuild and len(todo) < FORK_FROM:
        # forking, and each worker finding anew what its pages draw, cost a rebuild at
        # 10,000 abstracts 2.8 s of CPU for 1,300 pages gathered, 430 drawn (1.6 s here)
        forked = False
    elif forked and rebuild and signatures is not None and signed_elsewhere:
        sign_all(signatures, workers)  # once for every page worker, not by each of them
    if forked and in_child:
        raise WorkersNeededError(f"{len(todo)} pages to draw")
    if forked:
        drawn: Iterator[Drawn] = fork_map(_draw_index, (pages, before, todo), len(todo), workers)
    else:
        drawn = (draw(*pages[i], before) for i in todo)
    for name, _ in pages:
        kept = settled.get(name)
        if kept is not None:
            before.remember(name, kept, kept=True)
            yield name, None
            continue
        digest, content = next(drawn)
        if digest is not None:
            before.remember(name, digest, kept=content is None)
        yield name, content


def _settled(pages: Sequence[Page], before: PageMemo) -> dict[str, str]:
    """The pages kept without gathering their views, with their digests: those of papers and
    entities far from every node whose state changed (`page_scope`), when the last build
    remembered the states (and this one's are in `before`) and the page's file is as it
    left it."""
    if not isinstance(pages, Pages) or pages.signatures is None:
        return {}
    if before.states_before is None or before.states is None:
        return {}
    near = near_changes(pages.signatures.graph, before.states_before, before.states)
    out = {}
    for name, node in pages.about.items():
        if node not in near and (digest := before.unchanged(name)) is not None:
            out[name] = digest
    return out


def _draw_index(shared: tuple[Sequence[Page], PageMemo, list[int]], index: int) -> Drawn:
    """Run in a worker (`kg.processes.fork_map`): draw the `index`th page to draw of the
    pages it inherited."""
    pages, before, todo = shared
    name, page = pages[todo[index]]
    return draw(name, page, before)


#: nodes a worker signs at a time (`sign_all`)
SIGN_CHUNK = 2000


def sign_all(signatures: Signatures, workers: int, encode: bool = False) -> None:
    """Make the signature of every node of the graph (`Signatures`) once, in `workers`
    forked processes, for the page workers forked next to inherit: each page worker made
    those of the nodes its pages draw, nearly all of them (a paper is drawn on some 25
    pages), so every signature was made once per worker, a quarter of drawing's CPU time
    at 25,000 abstracts. With `encode` (a build that draws nearly every page), each node's
    JSON too (`Signatures.made_with_json`), which each page worker also made for nearly
    every node. Both are functions of the graph alone: made in this process or another,
    they are the same."""
    nodes = sorted(signatures.graph.nodes)
    chunks = [nodes[i : i + SIGN_CHUNK] for i in range(0, len(nodes), SIGN_CHUNK)]
    signed = fork_map(_sign_chunk, (signatures, chunks, encode), len(chunks), workers, chunksize=1)
    for chunk, made in zip(chunks, signed, strict=True):
        signatures.adopt_with_json(dict(zip(chunk, made, strict=True)))


def _sign_chunk(
    shared: tuple[Signatures, list[list[str]], bool], index: int
) -> list[tuple[str, tuple[str, str] | None]]:
    """Run in a worker (`kg.processes.fork_map`): the signatures of chunk `index`, with
    each node's JSON when the third of `shared` says so."""
    signatures, chunks, encode = shared
    if encode:
        return [signatures.made_with_json(node) for node in chunks[index]]
    return [(signatures(node), None) for node in chunks[index]]
