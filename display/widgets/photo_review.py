"""The photo review: the photo with every card's name and confidence drawn on it and a list
beside it; unknown and doubtful cards are highlighted and must be settled (pick list) before the
hand can be scored. SHUTTER takes (or retakes) the photo, read off the UI thread
(:class:`~display.widgets.slow.SlowWork`). Game screens subclass :class:`PhotoReviewScreen` and
say how to score (``score_text``, ``finish``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

import pygame

from display import ui
from display.actions import Action
from display.cards.capture import PhotoRead, capture_and_read
from display.cards.photos import photo_exists
from display.cards.reading import DOUBTFUL, OK, UNKNOWN, ReadCard, Reading
from display.screen import LegendItem
from display.widgets.photo_pane import PhotoPane
from display.widgets.photo_view import STATUS_COLOURS
from display.widgets.pick import CardCrop, PickScreen
from display.widgets.slow import BUSY_READING, SlowWork

if TYPE_CHECKING:
    from display.app import App

REMOVE = "__remove__"  # pick-list value: "this is not a card"


LOOKALIKE_FROM = 0.01  # a candidate the recogniser scored under this is no look-alike
#: The best look-alike is preselected in the pick list only when scored at least this: a weak
#: one ("like 44%") first under the cursor is one hasty OK from naming the wrong card. At least
#: even odds: the guess is more likely right than wrong.
STRONG_LOOKALIKE = 0.5


def strong_lookalike(card: ReadCard | None) -> bool:
    """The card's best guess is worth the cursor: chosen before by a player, or read (or
    found alike) with a confidence of at least :data:`STRONG_LOOKALIKE`."""
    if card is None:
        return False
    if card.name is not None and (card.settled or card.confidence >= STRONG_LOOKALIKE):
        return True
    return any(confidence >= STRONG_LOOKALIKE for _, confidence in card.candidates)


def card_options(
    card: ReadCard | None,
    all_names: list[str],
    taken: set[str],
    allow_remove: bool,
    label: Callable[[str], str] = str,
) -> tuple[list[tuple[str, str, str]], int]:
    """Pick-list options for one card: the look-alikes first - the recogniser's name and the
    gallery matches it called closest (scored at least :data:`LOOKALIKE_FROM`), with their
    confidence - then every card by name (look-alikes again, where a player looks for them),
    then "Not a card" if ``allow_remove``. Cards already on the table are left out (every card
    exists once). ``label`` says a card as players read it (the game's :meth:`card_label`).
    Returns (options, how many look-alikes lead)."""
    lookalikes: list[tuple[str, str, str]] = []

    def add(name: str, note: str) -> None:
        if name not in taken and name in all_names and all(name != o[0] for o in lookalikes):
            lookalikes.append((name, label(name), note))

    if card is not None:
        if card.name is not None:
            add(card.name, f"read {card.confidence:.0%}" if not card.settled else "chosen")
        for name, confidence in card.candidates:
            if confidence >= LOOKALIKE_FROM:
                add(name, f"like {confidence:.0%}")
    everyone = sorted(
        ((n, label(n), "") for n in all_names if n not in taken), key=lambda o: o[1].lower()
    )
    options = lookalikes + everyone
    if allow_remove:
        options.append((REMOVE, "Not a card: remove it", ""))
    return options, len(lookalikes)


class PhotoReviewScreen(SlowWork):
    """Photo + names; settle every unknown/doubtful card; then the game's score. Subclasses set
    ``kind``, ``layout`` ("rows"/"columns"), and implement :meth:`gallery`, :meth:`all_names`,
    :meth:`score_text` (the score line shown when every card is settled, or a reason) and
    :meth:`finish` (OK on the last row). SHUTTER reads the photo off the UI thread
    (:class:`SlowWork`): the screen shows "Reading the cards..." until the names land."""

    layout: ClassVar[str] = "rows"
    #: the header already names the player (the side list then has a row more)
    who_in_title: ClassVar[bool] = False
    finish_label: ClassVar[str] = "Score this hand"

    def __init__(self, app: App, who: str = "") -> None:
        super().__init__(app)
        self.who = who
        self.photo: str | None = None
        self.reading: Reading | None = None
        self.selected = 0
        self.error: str = ""
        self.pane = PhotoPane(app)
        self._row_rects: list[pygame.Rect] = []
        self._gallery_asked = False  # asked to be made ready (update)

    # -- what a game provides -----------------------------------------------------------------
    def gallery(self) -> Any:
        """The recogniser's gallery (called on the background worker)."""
        raise NotImplementedError

    def all_names(self) -> list[str]:
        raise NotImplementedError

    def card_label(self, name: str) -> str:
        """A card as players read it: the gallery name by default; a game whose gallery names
        are internal ids (Mixtape) says what is printed on the card instead."""
        return name

    def score_text(self) -> str:
        return ""

    def score_value(self) -> int | None:
        """The total to show large beside :meth:`score_text` (None: text only)."""
        return None

    def count_problem(self) -> str:
        """Why the number of cards found looks wrong ("6 of 7 cards found"), or ""."""
        return ""

    def score_tone(self) -> tuple[int, int, int]:
        """The frame of the score box once every card is settled: ``ui.GOOD`` for a score to
        keep, ``ui.BAD`` for a problem (an invalid hand), ``ui.ACCENT`` for one not final."""
        return ui.GOOD

    def finish(self) -> None:
        raise NotImplementedError

    def instructions(self) -> str:
        return "Lay the cards out face up, apart from each other, then press SHUTTER."

    # -- photo --------------------------------------------------------------------------------
    def update(self, now: float) -> None:
        if not self._gallery_asked:
            # The gallery is loaded (its look tables made) while the players lay their cards
            # out, not after SHUTTER: the first photo of a run paid for it (Pi library stack on
            # this PC, a 418-scan gallery: 0.04 s to open, 0.38 s for the look tables).
            self._gallery_asked = True
            self.app.prepare_in_background(self.gallery)
        super().update(now)

    def shoot(self) -> None:
        """Take the photo and read it on the background worker; :meth:`use_reading` lands it."""
        if self.busy:
            return
        app, gallery, layout, name = self.app, self.gallery, self.layout, self.kind
        self.start_job(
            BUSY_READING,
            lambda: capture_and_read(app, gallery, layout, name.replace(".", "-")),
            self.use_reading,
        )

    def use_reading(self, outcome: PhotoRead) -> None:
        if outcome.reading is None:
            self.error = outcome.error
            if outcome.no_photo and self.reading is None:
                # The camera is gone: the "add a card the camera missed" row still works, so the
                # cards can be entered by hand from the pick list.
                self.error += ". SHUTTER tries again; or OK to enter the cards by hand."
                self.reading = Reading([])
                self.selected = 0
                self.reading_changed()
            return
        reading = outcome.reading
        self.photo = outcome.photo
        self.reading = reading
        self.pane.taken(outcome)
        self.error = (
            "" if reading.cards else "No cards found in the photo: lay them out and retake."
        )
        self.reading_changed()
        self.selected = self.start_row()

    def reading_changed(self) -> None:
        """Hook: the cards changed (new photo, a correction)."""

    def start_row(self) -> int:
        """Where the cursor goes when the cards change: the first card to settle; else, when
        the count is wrong, "add a missed card" (too few) or the first card (too many, to
        remove one) - never the finish row, so one hasty OK cannot score a short hand."""
        unresolved = self.reading.unresolved if self.reading else []
        if unresolved:
            return unresolved[0]
        short = self.count_short()
        if short > 0:
            return len(self.cards)
        if short < 0:
            return 0
        return len(self.cards) + 1

    def count_short(self) -> int:
        """How many cards short of the expected count the cards are (negative: too many; 0:
        right, or no count expected)."""
        return 0

    # -- rows: the cards, "add a missed card", then "score" -------------------------------------
    @property
    def cards(self) -> list[ReadCard]:
        return self.reading.cards if self.reading else []

    def row_count(self) -> int:
        return len(self.cards) + 2 if self.reading else 0

    def ready(self) -> bool:
        return self.reading is not None and bool(self.cards) and not self.reading.unresolved

    def handle(self, action: Action) -> None:
        rows = self.row_count()
        if self.busy_handle(action):
            return
        if action is Action.SHUTTER:
            self.shoot()
        elif action is Action.BACK:
            self.app.pop()
        elif rows == 0:
            if action is Action.OK:
                self.shoot()
        elif action is Action.LEFT:
            self.selected = (self.selected - 1) % rows
        elif action is Action.RIGHT:
            self.selected = (self.selected + 1) % rows
        elif action is Action.OK:
            self.activate(self.selected)

    def activate(self, row: int) -> None:
        cards = self.cards
        if row < len(cards):
            self.open_pick(row)
        elif row == len(cards):
            self.open_pick(None)
        elif self.ready():
            self.finish()
        else:
            unresolved = self.reading.unresolved if self.reading else []
            self.selected = unresolved[0] if unresolved else 0
            self.app.toast(
                "Settle the highlighted cards first: OK on each to choose its name."
                if unresolved
                else "No cards yet: add the cards the camera missed, or SHUTTER to retake."
            )

    def taken_names(self, skip: int | None = None) -> set[str]:
        return {c.name for i, c in enumerate(self.cards) if c.name and i != skip}

    def open_pick(self, row: int | None) -> None:
        card = self.cards[row] if row is not None else None
        options, lookalikes = card_options(
            card,
            self.all_names(),
            self.taken_names(row),
            allow_remove=row is not None,
            label=self.card_label,
        )
        crop = None
        if card is not None and self.photo is not None and card.corners:
            crop = CardCrop(self.pane, self.photo, card.corners)
        if row is None:
            prompt = "Which card did the camera miss?"
        elif card is not None and card.blurred:
            prompt = f"Card {self.row_name(row)} was too blurred to read: which is it?"
        elif card is not None and card.name is None:
            prompt = f"Card {self.row_name(row)} was not read: which is it?"
        else:
            prompt = f"Card {self.row_name(row)}: which card is it?"
        game = self.title.split(" - ")[0]
        title = f"{game} - card {row + 1}" if row is not None else f"{game} - a missed card"
        self.app.push(
            PickScreen(
                self.app,
                title,
                prompt,
                options,
                lookalikes=lookalikes,
                preselect=strong_lookalike(card),
                extras=1 if row is not None else 0,
                crop=crop,
            ),
            purpose="add" if row is None else f"fix:{row}",
        )

    def on_result(self, purpose: str, result: Any) -> None:
        """The pick list's answer: a card added (``add``) or settled (``fix:ROW``)."""
        if self.reading is None or not isinstance(result, str):
            return
        value = result
        if purpose == "add":
            card = ReadCard(value, 1.0, [], settled=True, read_as=None)
            if self.layout == "columns":
                card.column = (
                    "B"
                    if sum(c.column == "B" for c in self.cards)
                    < sum(c.column == "A" for c in self.cards)
                    else "A"
                )
            self.reading.cards.append(card)
        elif purpose.startswith("fix:"):
            row = int(purpose[4:])
            if row >= len(self.cards):
                return
            if value == REMOVE:
                del self.reading.cards[row]
            else:
                self.reading.cards[row].settle(value)
        else:
            return
        self.reading_changed()
        self.selected = self.start_row()

    def handle_tap(self, x: int, y: int) -> bool:
        if self.busy:
            return False
        for index, rect in enumerate(self._row_rects):
            if rect.collidepoint(x, y):
                if index == self.selected:
                    self.activate(index)
                self.selected = index
                return True
        return False

    # -- drawing ------------------------------------------------------------------------------
    def draw(self, surface: pygame.Surface) -> None:
        if self.busy:
            self.draw_busy(surface)
            return
        width, height = surface.get_size()
        list_w = 300
        photo_box = (width - list_w - 3 * 12, height - 16)
        view = self.pane.view(self.photo, photo_box)
        if view is None:
            area = pygame.Rect(12, 8, photo_box[0], photo_box[1])
            ui.panel(surface, area, ui.PANEL, border=ui.BAD if self.error else ui.INFO)
            text = "Loading the photo…" if self.pane.loading else self.error or self.instructions()
            ui.paragraph(surface, text, area.inflate(-30, -30), ui.MEDIUM)
        else:
            shown = view.draw(surface, (12, 8), self.cards, self.selected)
            labels = [
                (shown.left + x * view.scale, shown.top + y * view.scale)
                for x, y in (card.label_point for card in self.cards)
            ]
            self.draw_banner(surface, shown, labels)
        self.draw_side(surface, pygame.Rect(width - list_w - 12, 8, list_w, height - 16))

    def banner_text(self) -> str:
        """What the banner over the photo says: the wrong number of cards first (a missed card
        changes the score more than a blurred one), else the cards the photo smeared. Cards
        missing *and* cards smeared are one problem, a shaken photo: then it says both, and
        that a steady retake mends it (adding the missing cards by hand would not name the
        smeared ones)."""
        count, smeared = self.count_problem(), self.blurred_rows()
        short = self.count_short()
        if count and smeared and short > 0:
            found = len(self.cards)
            return (
                f"{found} of {found + short} found, {len(smeared)} too blurred"
                " — retake with nothing moving"
            )
        return count or self.blur_problem()

    def blurred_rows(self) -> list[str]:
        """The cards not named because the photo smeared them, as the list names them."""
        return [self.row_name(i) for i, card in enumerate(self.cards) if card.blurred]

    def blur_problem(self) -> str:
        """The cards not named because the photo smeared them ("heading — advice"): a retake
        with nothing moving names them, quicker than picking each from the list (whose rows
        say which: "?? blurred")."""
        rows = self.blurred_rows()
        if not rows:
            return ""
        heading = (
            f"Card {rows[0]} is too blurred to read"
            if len(rows) == 1
            else f"{len(rows)} cards are too blurred to read"
        )
        return f"{heading} — retake with nothing moving"

    def draw_banner(
        self, surface: pygame.Surface, photo: pygame.Rect, labels: list[tuple[float, float]]
    ) -> None:
        """The banner (:meth:`banner_text`) across the foot of the photo or its top, whichever
        hides fewer of the cards' numbers (``labels``: where they are on screen)."""
        problem = self.banner_text()
        if not problem or self.reading is None:
            return
        heading, _, advice = problem.partition(" — ")
        line_h = ui.font(ui.SMALL).get_linesize()
        box = pygame.Rect(0, 0, photo.width - 12, 2 * line_h + 16)
        box.midbottom = (photo.centerx, photo.bottom - 6)
        top = box.copy()
        top.top = photo.top + 6

        def hidden(area: pygame.Rect) -> int:
            return sum(area.inflate(0, 60).collidepoint(x, y) for x, y in labels)

        if hidden(top) < hidden(box):
            box = top
        ui.panel(surface, box, ui.BACKGROUND, border=ui.ACCENT)
        ui.text(
            surface,
            heading,
            (box.left + 12, box.top + 8),
            ui.SMALL,
            ui.ACCENT,
            max_width=box.width - 24,
        )
        ui.text(
            surface,
            advice,
            (box.left + 12, box.top + 8 + line_h),
            ui.SMALL,
            max_width=box.width - 24,
        )

    def draw_side(self, surface: pygame.Surface, area: pygame.Rect) -> None:
        y = area.top
        if self.who and not self.who_in_title:
            y = (
                ui.text(
                    surface, self.who, (area.left, y), ui.MEDIUM, ui.ACCENT, max_width=area.width
                ).bottom
                + 4
            )
        self._row_rects = []
        if self.reading is None:
            return
        # A tight pitch, so that a 7-card hand, "add" and "score" all show beside the photo.
        row_h = ui.font(ui.SMALL).get_height() + 2
        score = self.score_text()
        bottom = area.bottom - (2 * ui.font(ui.SMALL).get_linesize() + 12 if score else 0)
        rows = self.row_labels()
        visible = max(1, (bottom - y) // row_h)
        first = min(max(0, self.selected - visible + 1), max(0, len(rows) - visible))
        self._row_rects = [pygame.Rect(0, 0, 0, 0)] * len(rows)
        width = area.width
        if len(rows) > visible:  # a scroll bar says rows are out of sight (above or below)
            # in the screen's right margin, so the rows keep (almost) all their width
            track = pygame.Rect(area.left, y, area.width + 10, visible * row_h - 2)
            ui.scroll_bar(surface, track, first, visible, len(rows))
            width -= 4
        for slot, index in enumerate(range(first, min(len(rows), first + visible))):
            label, colour = rows[index]
            rect = pygame.Rect(area.left, y + slot * row_h, width, row_h - 2)
            self._row_rects[index] = rect
            if index == self.selected:
                pygame.draw.rect(surface, ui.ACCENT, rect, border_radius=5)
                ui.text(
                    surface,
                    "> " + label,
                    (rect.left + 4, rect.centery),
                    ui.SMALL,
                    ui.ACCENT_TEXT,
                    anchor="midleft",
                    max_width=rect.width - 8,
                )
            else:
                ui.text(
                    surface,
                    "  " + label,
                    (rect.left + 4, rect.centery),
                    ui.SMALL,
                    colour,
                    anchor="midleft",
                    max_width=rect.width - 8,
                )
        if score:
            box = pygame.Rect(area.left, bottom + 4, area.width, area.bottom - bottom - 4)
            ui.panel(
                surface, box, ui.PANEL, border=self.score_tone() if self.ready() else ui.ACCENT
            )
            value = self.score_value() if self.ready() else None
            inner = box.inflate(-12, -8)
            if value is not None:
                shown = ui.text(surface, str(value), inner.topleft, ui.LARGE, ui.ACCENT)
                beside = pygame.Rect(
                    shown.right + 10, inner.top, inner.right - shown.right - 10, inner.height
                )
                ui.paragraph(surface, score, beside, ui.SMALL)
            else:
                ui.paragraph(surface, score, inner, ui.SMALL)

    def row_name(self, index: int) -> str:
        """Card ``index`` as the list and the photo number it: its column first on a tape
        ("A3"), else its place ("3")."""
        card = self.cards[index]
        return f"{card.column}{index + 1}" if card.column else f"{index + 1}"

    def row_labels(self) -> list[tuple[str, tuple[int, int, int]]]:
        rows: list[tuple[str, tuple[int, int, int]]] = []
        for index, card in enumerate(self.cards):
            status = card.status
            prefix = self.row_name(index)
            if card.blurred:
                label = f"{prefix} ?? blurred"
            elif status == UNKNOWN:
                label = f"{prefix} ?? pick a card"
            elif status == DOUBTFUL:
                label = f"{prefix} ? {self.card_label(card.name or '')} {card.confidence:.0%}"
            else:
                mark = ""
                if card.settled and not card.corners:
                    mark = " (added)"
                elif card.corrected:
                    mark = " (fixed)"
                label = f"{prefix} {self.card_label(card.name or '')}{mark}"
            rows.append((label, STATUS_COLOURS[status] if status != OK else ui.TEXT))
        rows.append(("+ Add a card", ui.DIM))
        # green only when one OK there does what it says (a wrong count asks first)
        rows.append(
            (self.finish_label, ui.GOOD if self.ready() and not self.count_short() else ui.DIM)
        )
        return rows

    def legend(self) -> list[LegendItem]:
        if self.busy:
            return self.busy_legend()
        if self.reading is None:
            return [(Action.SHUTTER, "Take photo"), (Action.BACK, "Back")]
        return [
            (Action.SHUTTER, "Retake"),
            ((Action.LEFT, Action.RIGHT), "Card"),
            (Action.OK, "Choose"),
            (Action.BACK, "Back"),
        ]

    # -- persistence --------------------------------------------------------------------------
    def snapshot(self) -> dict[str, Any]:
        return {
            "who": self.who,
            "photo": self.photo,
            "reading": None if self.reading is None else self.reading.to_json(),
            "selected": self.selected,
            "error": self.error,
            **self.busy_snapshot(),
        }

    def restore_into(self, data: dict[str, Any]) -> None:
        self.who = data.get("who", self.who)
        self.photo = data.get("photo")
        reading = data.get("reading")
        self.reading = None if reading is None else Reading.from_json(reading)
        if self.reading is not None and not photo_exists(self.app, self.photo):
            self.error = "The photo was lost; press SHUTTER to take it again."
            self.photo = None
        self.selected = int(data.get("selected", 0))
        self.error = self.interrupted(data) or data.get("error", self.error) or self.error
