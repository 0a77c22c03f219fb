"""I Made You a Mixtape at the table: score mixtapes from a photo, and play solo against Otto.

Screens:

* ``mixtape`` - the menu (needs the enrolled deck: ``enrolment/mixtape/deck.toml`` and its
  gallery, made on the Enrol screens or imported).
* ``mixtape.table`` - players one by one; ``mixtape.tape`` photographs a finished mixtape laid
  out as played (Trk A left, Trk B right, top to bottom): the columns are read, unknown or
  doubtful cards settled, then ``mixtape.result`` shows each card in order with its balance and
  flow points, the genre sets and the total; ``mixtape.ranking`` ranks with ties broken by the
  Balance score (then shared).
* ``mixtape.solo`` - the solo game against Otto at a real table (``SoloGame.at_table``): both
  mixtapes are kept by the appliance. Set-up cards, each round's three drawn cards and Otto's
  extra card are photographed (``mixtape.cards``); the screen says what Otto keeps, what you
  take and where every card goes; on your turn it records your choice. SEAT 1 undoes the last
  step. At the end both mixtapes are scored without another photo.

State (store namespace ``mixtape``): ``table`` (the scored players), ``solo`` (the game's
snapshot) and ``solo_history`` (earlier snapshots, for undo). Written after every event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pygame

from display import ui
from display.actions import Action
from display.flows import table
from display.flows.widgets import MenuScreen, PhotoReviewScreen
from display.screen import LegendItem, Screen, register_screen

if TYPE_CHECKING:
    from display.app import App
    from display.flows.enrolment import Enrolment
    from games.mixtape import Deck, MixtapeScore, SoloGame

NAMESPACE = "mixtape"
SOLO_KEY = "solo"
HISTORY_KEY = "solo_history"
HISTORY_LIMIT = 30


def enrolment(app: App) -> Enrolment:
    from display.screens.enrol import MIXTAPE
    from display.screens.enrol import enrolment as enrolled

    return enrolled(app, MIXTAPE)


def load_table_deck(app: App) -> Deck:
    """The enrolled deck; raises MixtapeError / EnrolmentError with a reason for the screen."""
    from games.mixtape import DeckError, load_deck

    path = enrolment(app).deck_path
    if not path.is_file():
        raise DeckError(
            "no Mixtape deck enrolled yet: enrol your cards (home, Enrol cards, Mixtape) or "
            "import an enrolment file"
        )
    # Screens ask every frame: read the file again only when it changed.
    stamp = (str(path), path.stat().st_mtime_ns)
    cached = app.__dict__.get("_mixtape_deck")
    if cached is not None and cached[0] == stamp:
        return cached[1]
    deck = load_deck(path)
    app.__dict__["_mixtape_deck"] = (stamp, deck)
    return deck


def placement_text(deck: Deck, order: list[str], discarded: list[str] | None = None) -> str:
    """ "EX03 -> Trk A, EX07 -> Trk B" (each goes to the bottom of its column)."""
    parts = [
        f"{card} -> Trk {deck.card(card).side}" for card in order if card not in (discarded or [])
    ]
    for card in discarded or []:
        parts.append(f"{card} -> box (off the Equalizer)")
    return ", ".join(parts) if parts else "nothing"


def tape_line(tape_json: dict[str, Any]) -> str:
    a = " ".join(tape_json.get("a", [])) or "-"
    b = " ".join(tape_json.get("b", [])) or "-"
    return f"A: {a}   B: {b}"


@register_screen
class MixtapeMenuScreen(MenuScreen):
    kind = "mixtape"
    title = "I Made You a Mixtape"

    def rows(self) -> list[tuple[str, str, str]]:
        players = len(table.load_table(self.app, NAMESPACE)["players"])
        solo = self.app.store.get(NAMESPACE, SOLO_KEY)
        try:
            deck = load_table_deck(self.app)
            deck_note = f"{len(deck.cards)} cards"
        except Exception:
            deck_note = "not ready"
        return [
            ("table", "Score mixtapes", f"{players} scored" if players else ""),
            ("solo", "Solo game vs Otto", "in progress" if solo else ""),
            ("new", "New table / new solo game", ""),
            ("enrol", "Enrol cards / deck", deck_note),
        ]

    def open(self, key: str) -> None:
        if key == "enrol":
            from display.screens.enrol import MixtapeEnrolScreen

            self.app.push(MixtapeEnrolScreen(self.app))
            return
        if key == "new":
            table.save_table(self.app, NAMESPACE, {"players": []})
            self.app.store.delete(NAMESPACE, SOLO_KEY)
            self.app.store.put(NAMESPACE, HISTORY_KEY, [])
            self.app.toast("Scores and the solo game cleared.")
            return
        try:
            load_table_deck(self.app)
        except Exception as error:
            from display.screens.message import MessageScreen

            self.app.push(MessageScreen(self.app, "Deck not ready", str(error)))
            return
        if key == "table":
            self.app.push(MixtapeTableScreen(self.app))
        elif key == "solo":
            self.app.push(SoloScreen(self.app))


@register_screen
class MixtapeTableScreen(table.TableScreen):
    kind = "mixtape.table"
    title = "Mixtape - the table"
    namespace = NAMESPACE
    next_label = "Next tape"

    def player_note(self, player: dict[str, Any]) -> str:
        return f"{player['score']['total']} pts"

    def hand_screen(self, who: str, replaces: int | None = None) -> table.TableHandScreen:
        return MixtapeTapeScreen(self.app, who, replaces)

    def ranking_screen(self) -> Screen:
        return MixtapeRankingScreen(self.app)


@register_screen
class MixtapeTapeScreen(table.TableHandScreen):
    """A finished mixtape: Trk A left, Trk B right, each top to bottom."""

    kind = "mixtape.tape"
    title = "Mixtape - photograph the mixtape"
    layout = "columns"
    finish_label = "Score this mixtape"

    def gallery(self) -> Any:
        return enrolment(self.app).gallery()

    def all_names(self) -> list[str]:
        try:
            return [card.id for card in load_table_deck(self.app).cards]
        except Exception:
            return sorted(enrolment(self.app).cards)

    def instructions(self) -> str:
        return (
            f"{self.who}: lay your mixtape out as played: Trk A on the left, Trk B on the right, "
            "each top to bottom. Press SHUTTER."
        )

    def picked(self, purpose: str, value: str) -> None:
        """A card added by hand goes to the column its side says (at the bottom: if it lies
        higher up, retake the photo so the flow is read in the right order)."""
        super().picked(purpose, value)
        if purpose == "add" and self.reading is not None and self.cards:
            try:
                self.cards[-1].column = load_table_deck(self.app).card(value).side
            except Exception:
                pass
            self.reading_changed()

    def columns(self) -> tuple[list[str], list[str]]:
        a = [c.name for c in self.cards if c.name and c.column != "B"]
        b = [c.name for c in self.cards if c.name and c.column == "B"]
        return a, b

    def result(self) -> MixtapeScore | str:
        from games.mixtape import MixtapeError, score_mixtape

        try:
            deck = load_table_deck(self.app)
            a, b = self.columns()
            return score_mixtape(deck, a, b)
        except MixtapeError as error:
            return str(error)

    def player_fields(self, result: MixtapeScore) -> dict[str, Any]:
        a, b = self.columns()
        return {"a": a, "b": b, "score": result.to_json()}

    def result_screen(self, player: dict[str, Any]) -> Screen:
        return MixtapeResultScreen(self.app, player, replaces=self.replaces)


def draw_columns(
    surface: pygame.Surface, deck: Deck, a: list[str], b: list[str], score: dict[str, Any], top: int
) -> int:
    """Both columns, each card with its genre, balance and flow points; returns the y after."""
    from games.mixtape import GENRE_NAMES

    width = surface.get_width()
    flows = {(c["id"]): c["flow_points"] for c in score["cards"]}
    col_w = (width - 3 * ui.MARGIN) // 2
    bottom = top
    for index, (label, ids) in enumerate((("Trk A", a), ("Trk B", b))):
        x = ui.MARGIN + index * (col_w + ui.MARGIN)
        ui.text(surface, label, (x, top), ui.SMALL, ui.ACCENT)
        y = top + 30
        for card_id in ids:
            card = deck.card(card_id)
            line = (
                f"{card_id} {GENRE_NAMES[card.genre]}  bal {card.balance}  "
                f"flow {flows.get(card_id, 0)}"
            )
            ui.text(surface, line, (x, y), ui.SMALL, max_width=col_w)
            y += 28
        bottom = max(bottom, y)
    return bottom


@register_screen
class MixtapeResultScreen(table.TableResultScreen):
    kind = "mixtape.result"
    title = "Mixtape - score"
    namespace = NAMESPACE
    table_kind = "mixtape.table"
    game_title = "Mixtape"

    def points(self) -> int:
        return int(self.player["score"]["total"])

    def draw(self, surface: pygame.Surface) -> None:
        from games.mixtape import GENRE_NAMES

        width, height = surface.get_size()
        score = self.player["score"]
        deck = load_table_deck(self.app)
        ui.text(surface, str(score["total"]), (ui.MARGIN, 4), ui.BIG, ui.ACCENT)
        parts = (
            f"balance {score['balance']['points']} (cube {score['balance']['position']:+d}) + "
            f"flow {score['flow']} + genres {score['genres']}"
        )
        ui.text(
            surface,
            "points",
            (ui.MARGIN + ui.text_width(str(score["total"]), ui.BIG) + 10, 30),
            ui.MEDIUM,
        )
        ui.text(
            surface,
            parts,
            (width - ui.MARGIN, 34),
            ui.SMALL,
            anchor="midright",
            max_width=width - 260,
        )
        y = draw_columns(surface, deck, self.player["a"], self.player["b"], score, 70)
        sets = ", ".join(
            f"{GENRE_NAMES[g]} x{v['cards']} = {v['points']}"
            for g, v in score["genre_sets"].items()
        )
        ui.paragraph(
            surface,
            f"Genre sets: {sets or 'none'}",
            pygame.Rect(ui.MARGIN, y + 6, width - 2 * ui.MARGIN, height - y - 6),
            ui.SMALL,
            ui.INFO,
        )


@register_screen
class MixtapeRankingScreen(table.RankingScreen):
    """Ties are broken by the Balance score, then shared."""

    kind = "mixtape.ranking"
    title = "Mixtape - ranking"
    namespace = NAMESPACE
    empty = ("No mixtapes yet", "Score a mixtape first.")

    def key(self, player: dict[str, Any]) -> tuple[int, int]:
        return (player["score"]["total"], player["score"]["balance"]["points"])

    def note(self, player: dict[str, Any]) -> str:
        return f"{player['score']['total']} pts (balance {player['score']['balance']['points']})"


@register_screen
class MixtapeCardsScreen(PhotoReviewScreen):
    """Photograph a few cards for the solo game (set-up, the draw, Otto's extra card); the
    settled names go to the screen below through ``cards_read(purpose, ids)``."""

    kind = "mixtape.cards"
    title = "Mixtape - photograph the cards"
    finish_label = "Use these cards"

    def __init__(self, app: App, purpose: str = "", expected: int = 3, what: str = "") -> None:
        super().__init__(app, "")
        self.purpose = purpose
        self.expected = expected
        self.what = what

    def gallery(self) -> Any:
        return enrolment(self.app).gallery()

    def all_names(self) -> list[str]:
        return [card.id for card in load_table_deck(self.app).cards]

    def instructions(self) -> str:
        return self.what

    def score_text(self) -> str:
        if self.reading is None:
            return ""
        count = len(self.names_read())
        if count != self.expected:
            return f"{count} card(s) read; {self.expected} expected. Retake, add or remove."
        if not self.ready():
            return f"{len(self.reading.unresolved)} card(s) to settle."
        return "All read. OK on the last row to use them."

    def activate(self, row: int) -> None:
        count = len(self.names_read())
        if row == len(self.cards) + 1 and self.reading is not None and count != self.expected:
            if not self.reading.unresolved:
                self.app.toast(
                    f"{count} card(s) read, {self.expected} needed: add the missing one, "
                    "remove an extra one, or SHUTTER to retake."
                )
                return
        super().activate(row)

    def names_read(self) -> list[str]:
        return [c.name for c in self.cards if c.name]

    def ready(self) -> bool:
        return super().ready() and len(self.names_read()) == self.expected

    def finish(self) -> None:
        names = self.names_read()
        self.app.pop()
        receiver = getattr(self.app.top, "cards_read", None)
        if receiver is not None:
            receiver(self.purpose, names)

    def snapshot(self) -> dict[str, Any]:
        return {
            **super().snapshot(),
            "purpose": self.purpose,
            "expected": self.expected,
            "what": self.what,
        }

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(
            app, data.get("purpose", ""), int(data.get("expected", 3)), data.get("what", "")
        )
        screen.restore_into(data)
        return screen


@register_screen
class SoloScreen(Screen):
    """The solo game against Otto at a real table; see the module docstring."""

    kind = "mixtape.solo"
    title = "Mixtape - solo vs Otto"

    def __init__(self, app: App) -> None:
        super().__init__(app)
        self.choice = 0
        self.message = ""  # what happened in the last step (placements), shown on top
        self._game: SoloGame | None = None  # the stored game, read once per change

    # -- state --------------------------------------------------------------------------------
    def game(self) -> SoloGame | None:
        from games.mixtape import MixtapeError, SoloGame

        if self._game is not None:
            return self._game
        data = self.app.store.get(NAMESPACE, SOLO_KEY)
        if data is None:
            return None
        try:
            self._game = SoloGame.restore(load_table_deck(self.app), data)
            return self._game
        except MixtapeError as error:
            self.app.store.put(NAMESPACE, "unreadable_solo", data)
            self.app.store.delete(NAMESPACE, SOLO_KEY)
            self.app.toast(f"The saved solo game could not be read ({error}); set aside.")
            return None

    def save(self, game: SoloGame, before: dict[str, Any] | None) -> None:
        if before is not None:
            history = list(self.app.store.get(NAMESPACE, HISTORY_KEY) or [])
            history.append({"game": before, "message": self.message})
            self.app.store.put(NAMESPACE, HISTORY_KEY, history[-HISTORY_LIMIT:])
        self.app.store.put(NAMESPACE, SOLO_KEY, game.snapshot())
        self._game = None

    def undo(self) -> None:
        history = list(self.app.store.get(NAMESPACE, HISTORY_KEY) or [])
        if not history:
            self.app.toast("Nothing to undo.")
            return
        last = history.pop()
        self._game = None
        self.app.store.put(NAMESPACE, HISTORY_KEY, history)
        if last["game"] is None:
            self.app.store.delete(NAMESPACE, SOLO_KEY)
        else:
            self.app.store.put(NAMESPACE, SOLO_KEY, last["game"])
        self.message = "Undone. " + (last.get("message") or "")
        self.choice = 0

    # -- photos -------------------------------------------------------------------------------
    def photograph(self, purpose: str, expected: int, what: str) -> None:
        screen = MixtapeCardsScreen(self.app, purpose, expected, what)
        self.app.push(screen)
        screen.shoot()

    def prompt(self, game: SoloGame | None) -> tuple[str, int, str]:
        """(purpose, cards expected, what to lay out) for the photo this step needs."""
        from games.mixtape.solo import DRAW, OTTO_EXTRA, YOU

        if game is None:
            return (
                "setup",
                2,
                "Set-up: deal your set-up card and Otto's. Lay yours on the LEFT and Otto's on "
                "the RIGHT, then SHUTTER.",
            )
        if game.phase == DRAW and game.active == YOU:
            return (
                "draw",
                3,
                "Your turn: draw three cards, two face up and one face down. Lay all three face "
                "up in a row, the face-down one on the RIGHT, then SHUTTER.",
            )
        if game.phase == DRAW:
            return (
                "draw",
                3,
                "Otto's turn: draw three cards face up and lay them in a row, then SHUTTER.",
            )
        if game.phase == OTTO_EXTRA:
            return (
                "extra",
                1,
                "Otto keeps one card, so he draws one more from his own deck: lay it alone "
                "under the camera, then SHUTTER.",
            )
        return ("", 0, "")

    def cards_read(self, purpose: str, ids: list[str]) -> None:
        from games.mixtape import MixtapeError, SoloGame
        from games.mixtape.solo import OTTO_TURN

        game = self.game()
        before = None if game is None else game.snapshot()
        try:
            if purpose == "setup":
                seed = int(self.app.store.get(NAMESPACE, "solo_games", 0)) + 1
                self.app.store.put(NAMESPACE, "solo_games", seed)
                game = SoloGame.at_table(load_table_deck(self.app), ids[0], ids[1], seed=seed)
                self.message = f"Set up: your mixtape starts with {ids[0]}, Otto's with {ids[1]}."
            elif game is not None and purpose == "draw":
                game.draw(ids)
                if game.phase == OTTO_TURN:
                    decision = game.otto_turn()
                    keeps = ", ".join(decision.otto_takes)
                    self.message = f"Otto keeps {keeps} (decided by {decision.decided_by})."
                    if decision.decided_by == "random":
                        self.message += f" Random pick, seed {decision.seed}."
                else:
                    self.message = "Choose what you take."
            elif game is not None and purpose == "extra":
                game.otto_extra(ids[0])
            else:
                return
        except MixtapeError as error:
            self._game = None  # a refused move may have half-changed the object
            self.app.toast(str(error))
            return
        self.choice = 0
        self.save(game, before)

    # -- input --------------------------------------------------------------------------------
    def handle(self, action: Action) -> None:
        from games.mixtape import MixtapeError
        from games.mixtape.solo import OVER, YOU_CHOOSE, YOU_PLACE

        game = self.game()
        if action is Action.BACK:
            self.app.pop()
            return
        if action is Action.SEAT_1:
            self.undo()
            return
        purpose, expected, what = self.prompt(game)
        if purpose and action in (Action.SHUTTER, Action.OK):
            self.photograph(purpose, expected, what)
            return
        if game is None:
            return
        before = game.snapshot()
        try:
            if game.phase == YOU_CHOOSE:
                options = game.your_options()
                if action is Action.LEFT:
                    self.choice = (self.choice - 1) % len(options)
                elif action is Action.RIGHT:
                    self.choice = (self.choice + 1) % len(options)
                elif action is Action.OK:
                    taken = options[self.choice]
                    otto_gets = [c for c in game.drawn if c not in taken]
                    game.you_choose(taken)
                    entry = game.log[-1]
                    mine = placement_text(game.deck, entry["you_placed"], entry["discarded"])
                    his = placement_text(game.deck, entry["otto_placed"], entry["discarded"])
                    self.message = (
                        f"You take {', '.join(taken)}: {mine}. "
                        f"Otto gets {', '.join(otto_gets) or 'nothing'}: {his}."
                    )
                    self.save(game, before)
            elif game.phase == YOU_PLACE and action is Action.OK:
                entry = game.log[-1]
                pending = list(game.pending)
                game.you_place()
                entry = game.log[-1]
                mine = placement_text(
                    game.deck, entry.get("you_placed", pending), entry["discarded"]
                )
                self.message = (
                    f"Otto placed {placement_text(game.deck, entry['otto_placed'])}; "
                    f"you placed {mine}."
                )
                self.save(game, before)
            elif game.phase == OVER and action is Action.OK:
                self.app.pop()
        except MixtapeError as error:
            self._game = None
            self.app.toast(str(error))

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        from games.mixtape.solo import OTTO, OVER, YOU, YOU_CHOOSE, YOU_PLACE

        width, height = surface.get_size()
        game = self.game()
        y = 6
        if self.message:
            y = (
                ui.paragraph(
                    surface,
                    self.message,
                    pygame.Rect(ui.MARGIN, y, width - 2 * ui.MARGIN, 62),
                    ui.SMALL,
                    ui.INFO,
                )
                + 4
            )
        if game is None:
            ui.paragraph(
                surface,
                self.prompt(None)[2],
                pygame.Rect(ui.MARGIN, y + 10, width - 2 * ui.MARGIN, 200),
                ui.MEDIUM,
            )
            return
        scores = game.scores()
        box = pygame.Rect(ui.MARGIN, y, width - 2 * ui.MARGIN, 92)
        ui.panel(surface, box, ui.PANEL)
        for row, (who, tape) in enumerate(((YOU, game.you), (OTTO, game.otto))):
            label = "You " if who == YOU else "Otto"
            line = f"{label}  {scores[who].total:>3} pts   {tape_line(tape.to_json())}"
            ui.text(
                surface,
                line,
                (box.left + 12, box.top + 10 + row * 38),
                ui.SMALL,
                max_width=box.width - 24,
            )
        y = box.bottom + 8
        area = pygame.Rect(ui.MARGIN, y, width - 2 * ui.MARGIN, height - y - 4)
        if game.phase == OVER:
            you, otto = scores[YOU].total, scores[OTTO].total
            verdict = "You win!" if game.winner() == YOU else "Otto wins."
            text = f"Game over. You {you}, Otto {otto}. {verdict}"
            if you == otto:
                text += " (A tie goes to Otto: you must beat him.)"
            y = ui.paragraph(surface, text, area, ui.MEDIUM, ui.ACCENT) + 6
            for who, label in ((YOU, "You"), (OTTO, "Otto")):
                s = scores[who]
                line = (
                    f"{label}: balance {s.balance_points} + flow {s.flow} + genres {s.genres}"
                    f" = {s.total}"
                )
                ui.text(surface, line, (area.left, y), ui.SMALL, max_width=area.width)
                y += 32
            return
        purpose, _, what = self.prompt(game)
        if purpose:
            ui.paragraph(surface, f"Round {game.round}. {what}", area, ui.SMALL, ui.TEXT)
            return
        if game.phase == YOU_CHOOSE:
            options = game.your_options()
            ui.text(
                surface,
                f"Round {game.round}: what do you take? (face-down: {game.face_down})",
                (area.left, area.top),
                ui.SMALL,
                ui.ACCENT,
            )
            items = [
                ui.MenuItem(
                    " + ".join(o),
                    "Otto gets " + (", ".join(c for c in game.drawn if c not in o) or "-"),
                )
                for o in options
            ]
            ui.menu(
                surface,
                items,
                self.choice,
                pygame.Rect(area.left, area.top + 32, area.width, area.height - 32),
                ui.SMALL,
                row_gap=2,
            )
        elif game.phase == YOU_PLACE:
            entry = game.log[-1]
            text = (
                f"Otto keeps {', '.join(entry['decision']['otto_takes'])}"
                + (f" + {entry['extra']} from his deck" if entry.get("extra") else "")
                + " and places: "
                + placement_text(game.deck, entry["otto_placed"], entry["discarded"])
                + ". "
                + f"You take {', '.join(game.pending)}: place "
                + placement_text(game.deck, self.best_order(game))
                + ". OK when placed."
            )
            ui.paragraph(surface, text, area, ui.SMALL)

    @staticmethod
    def best_order(game: SoloGame) -> list[str]:
        from games.mixtape import best_order

        return best_order(game.deck, game.you, list(game.pending))

    def legend(self) -> list[LegendItem]:
        from games.mixtape.solo import OVER, YOU_CHOOSE, YOU_PLACE

        game = self.game()
        purpose = self.prompt(game)[0]
        items: list[LegendItem] = []
        if purpose:
            items.append((Action.SHUTTER, "Photo"))
        elif game is not None and game.phase == YOU_CHOOSE:
            items += [((Action.LEFT, Action.RIGHT), "Option"), (Action.OK, "Take it")]
        elif game is not None and game.phase == YOU_PLACE:
            items.append((Action.OK, "Placed"))
        elif game is not None and game.phase == OVER:
            items.append((Action.OK, "Done"))
        items += [(Action.SEAT_1, "Undo"), (Action.BACK, "Menu")]
        return items

    def snapshot(self) -> dict[str, Any]:
        return {"choice": self.choice, "message": self.message}

    @classmethod
    def restore(cls, app: App, data: dict[str, Any]) -> Screen:
        screen = cls(app)
        screen.choice = int(data.get("choice", 0))
        screen.message = data.get("message", "")
        return screen
