"""The photo a screen shows, fitted to a box, never decoded on the UI thread (its own module so
that the pick list's card crop and the photo review can both use it without importing each
other)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from display.cards.capture import PhotoRead, preview_from_file
from display.widgets.photo_view import PhotoView

if TYPE_CHECKING:
    from concurrent.futures import Future

    from display.app import App


class PhotoPane:
    """The photo a screen shows (by its kept file name), fitted to a box. The UI thread never
    decodes a camera photo: a photo just taken comes with a screen-sized copy made by the job
    (:meth:`taken`), and one reopened from a saved table or after a restart is read back on the
    background worker (meanwhile :meth:`view` is None and :attr:`loading` is True; a file that
    is gone is named in :attr:`gone`)."""

    def __init__(self, app: App) -> None:
        self.app = app
        self._shot: PhotoRead | None = None
        self._key: tuple[str, tuple[int, int]] | None = None
        self._view: PhotoView | None = None
        self._job: Future[Any] | None = None
        self._job_photo: str | None = None
        self.loading = False
        self.gone: str | None = None

    def taken(self, shot: PhotoRead) -> None:
        self._shot, self._key, self._view = shot, None, None

    def shot(self, photo: str | None) -> PhotoRead | None:
        """The photo's screen-sized copy (None: still loading - see :attr:`loading` - or gone)."""
        self.loading = False
        if photo is None or photo == self.gone:
            return None
        if self._shot is not None and self._shot.photo == photo:
            return self._shot
        if self._job is None or self._job_photo != photo:
            app = self.app
            self._job = app.run_job(lambda: preview_from_file(app, photo))
            self._job_photo = photo
        if not self._job.done():
            self.loading = True
            return None
        shot, self._job, self._job_photo = self._job.result(), None, None
        if shot is None:
            self.gone = photo
            return None
        self._shot = shot
        return shot

    def view(self, photo: str | None, box: tuple[int, int]) -> PhotoView | None:
        if photo is None or photo == self.gone:
            self.loading = False
            return None
        if self._key != (photo, box):
            self._key, self._view = (photo, box), None
        if self._view is not None:
            return self._view
        shot = self.shot(photo)
        if shot is None or shot.preview is None:
            return None
        self._view = PhotoView(shot.preview, box, full_width=shot.full_size[0])
        return self._view
