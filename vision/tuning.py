"""Every threshold of the recogniser, grouped by the step that uses it.

Each value carries a one-line calibration note: what it was tuned on, and what moves when it
changes. Words used in the notes:

- *dev scenes*: generated scenes of seed 7 (hard ones unless said), never the benchmark's seed;
- *benchmark*: ``tablekeeper bench vision --real ../shared/datasets/real-cards --held-out 0.25``
  (seed 2026);
- *real*: the five shared real photos (9 cards) against the 418-scan gallery;
- *held-out*: real cards left out of a gallery (``--held-out``), the hardest open-set test;
- *families*: ``tablekeeper bench vision --families ...`` (tuned on seed 11; the figures page,
  docs/recognition-figures.md, is another seed);
- *hand-set*: chosen when the step was written, with no recorded sweep (worth measuring first
  when that step misbehaves).

Lengths are in canonical card pixels (the upright card is 336 x 468, see
:mod:`vision.geometry`) unless they say otherwise. Change one value at a time, run the dev
scenes first and the benchmark last, and regenerate docs/recognition-figures.md. What a value
used to be belongs in the commit message, not here.
"""

from __future__ import annotations

# -- the photo --------------------------------------------------------------------------------
# Finding works on a copy at most this big; naming rectifies from the full photo. Larger: more
# small cards found, slower find; smaller: small cards lose their features (benchmark sizes).
WORK_LONG_SIDE = 1640
# Smallest side (px) of a usable photo: below this nothing card-sized fits (hand-set).
MIN_PHOTO_SIDE = 32

# -- the answer -------------------------------------------------------------------------------
# Names below this confidence come back unknown. Calibrated on the benchmark's calibration
# table: 0.2-0.4 name 3 more cards, 0.6+ lose 4+, no threshold names a card wrongly.
ACCEPT_CONFIDENCE = 0.5
# An unnamed card is "too blurred" below this sharpness (detect.sharpness: ~1 crisp print,
# ~0 blurred); hand-set against the blurred-card test. Higher: more "too blurred".
BLUR_LIMIT = 0.35
# ... or below this sharpness along its blurriest direction (detect.streak_sharpness) while
# that is under STREAK_SPREAD of its sharpest direction's: a shaken camera. Motion family seed
# 11: cards shaken 10-28 px measure 0.32-0.50 at 0.52-0.82 (12 of 16 caught), sharp cards
# (strangers family) 0.48-0.64 at 0.69-0.76, a steep hard-scene stranger 0.41 at 0.71.
STREAK_BLUR_LIMIT = 0.42  # higher: sharp strangers called "too blurred"
STREAK_SPREAD = 0.7  # higher: steep (foreshortened) sharp cards called "too blurred"
# An unnamed card-shaped region is too plain to be a card (unknown.not_a_card) when, looked at
# at PLAIN_VIEW px less a PLAIN_BORDER share each side, its grey spread is under PLAIN_MIN_STD,
# or under PLAIN_MIN_DETAIL of it differs from its 1.5-px blur by PLAIN_DETAIL_LEVEL grey
# levels while it is sharp. Cloth/clutter families seed 11: cards (strangers too) spread 39-63
# with detail 0.39-0.65, shaken cards 30-54 with 0.14-0.35 (blurred, so kept); gingham checks
# spread 1-4, plaid checks and a phone 16-32 with detail 0.10-0.23. Higher: strangers dropped.
PLAIN_VIEW = (84, 117)  # px the region is straightened to (a quarter card; detail at print scale)
PLAIN_BORDER = 0.1  # share cut off each side (the card's frame and the table at a loose outline)
PLAIN_MIN_STD = 12.0  # grey spread under which a region is flat (checks 1-4, cards 30 and up)
PLAIN_DETAIL_LEVEL = 6.0  # grey levels from the 1.5-px blur that count as fine detail
PLAIN_MIN_DETAIL = 0.3  # share of fine detail a sharp card has at least (cards 0.39 and up)
# A weak fit that overlaps named cards is judged on the part they leave free: under this share
# free, it is the named cards' leftover features (a quad hanging off a card over the cloth, seen
# on the flows' 7-card scene 31 with a 7-card gallery). Higher: a stranger mostly covered by its
# neighbours in a fan goes unreported.
WEAK_UNCOVERED_MIN_SHARE = 0.2

# -- light: taking it out (vision.photometry) ----------------------------------------------------
# The photo is stretched per channel so these percentiles (inside any padding) become black and
# white: exposure and colour cast undone together. Tuned on the lighting suite's TUNING lights
# (seed 11); a higher top percentile lets glare decide the white point.
BALANCE_PERCENTILES = (0.5, 99.5)
BALANCE_SAMPLES = 40000  # pixels sampled for the percentiles (speed)
BALANCE_MIN_SPAN = 32.0  # grey levels: a flatter photo or card is not stretched further
BALANCE_MAX_GAIN = 4.0  # at most this much gain (a black photo stays black)
BALANCE_IGNORE = 0.03  # gains within 3 % of 1 (and a black floor) leave the photo as it is
STRETCH_MAX_GAIN = 4.0  # the same cap for one card's grey image before its features
LOOK_SPREAD_FLOOR = 4.0  # grey levels added to a look channel's spread (a flat card)

# -- find: features of the whole photo ----------------------------------------------------------
# ORB budget of the first look (benchmark; vision-notes.md: plain ORB matching found 8/9 real
# cards at 2,000-5,000). More: small cards get features, the word look-up costs more.
PHOTO_FEATURES = 4000
PHOTO_SCALE_FACTOR = 1.25  # photo ORB pyramid step (hand-set: cards from ~1/8 to 1/2 the photo)
PHOTO_LEVELS = 6  # photo ORB pyramid levels (hand-set with the step above)
PHOTO_FAST_THRESHOLD = 10  # FAST corner contrast, first look (hand-set; lower: more weak corners)
# ORB's border and patch size, photo and cards alike (OpenCV's patch 31; the border must not
# be smaller than the patch's reach, so a card touching the photo's edge loses that strip).
ORB_EDGE_THRESHOLD = 19  # px of border with no features (at least the patch's reach)
ORB_PATCH_SIZE = 31  # px: ORB's descriptor patch (OpenCV's default; galleries store it)

# -- find: votes in the word index --------------------------------------------------------------
PROBES = 3  # fine words looked up per feature (hand-set): more matches vs more look-up time
COARSE_PROBES = 3  # coarse words searched per descriptor (same trade-off, one level up)
DESCRIPTORS_PER_WORD = 30  # fine-word size: smaller = more words to compare, larger = slower
INDEX_DESCRIPTORS_PER_COARSE = 60  # sets the coarse vocabulary size (sqrt(N / 60)); hand-set
INDEX_MAX_COARSE = 64  # coarse words at most (a 418-card gallery uses 59)
INDEX_MAX_FINE = 512  # fine words per coarse word at most (hand-set, never reached)
INDEX_ITERATIONS = (3, 2)  # k-majority rounds, coarse and fine (hand-set; enrolment time)
# A descriptor match counts when the nearest reference is at most this far (of 256 bits) ...
MAX_DESCRIPTOR_DISTANCE = 64
# ... and clearly nearer than any feature of a differently named card: tighter loses votes
# on small cards, looser lets repeated frame features vote (hand-set).
RATIO = 0.9
# Pairs of one query within this many bits of its best pair vote too, so each printing of a
# name gets its share (hand-set; larger spreads votes over look-alike references).
VOTE_SPREAD_BITS = 8
MIN_VOTES = 6  # votes before a reference is fitted (hand-set; lower: more fits, slower)
MAX_HYPOTHESES = 40  # references fitted per look at most (cost cap; 7-card scenes use ~15)
# The first look's strongest this many features are looked up first; a weaker one is not looked
# up on a card they fit from FIND_SURE_INLIERS inliers or more that no other fit overlaps (a
# whole card lying alone; looking features up is most of find's cost: a fifth of it saved on
# seed 2026's families, Pi stack). Skipping them on every card fitted, fans too, lost
# a fanned card on four of eight seeds and cards under the lighting suite; on sure cards only,
# the top card of a fan, two of seed 2032's fan cards.
# FIND_SURE_INLIERS 12 (of the strongest features' votes) skips more than 20 did, with the same
# answers on the check seeds but for motion-blurred cards (one more named, one fewer false
# report, one named -> unknown, over eight seeds).
FIND_FIRST_FEATURES = 2000
FIND_SURE_INLIERS = 12
RIVAL_VOTES_KEPT = 6  # voted references kept per hypothesis as its naming rivals
# ... of which this many join the naming shortlist. Each reference in it costs ~0.5 ms a naming
# on the Pi's stack. 2 (with SIGNATURE_SHORTLIST = 2) names as 4 did on seed 2026's 240 and seed
# 11's 90 scenes, the held-out real cards and the benchmark lights; fewer rivals raise
# confidences a little (113 of 1,670, median +0.001), more cost time.
RIVALS_NAMED = 2
VOTES_FOR_SHORTLIST = 2  # a reference voted inside an outline at least this often is shortlisted

# -- fit: a card's corners from its votes (RANSAC) ----------------------------------------------
MIN_FIND_INLIERS = 8  # a fit needs this many consistent matches (lower: more false fits to name)
# A fit spends the photo features inside its card, clipped to its inliers' box grown by this
# share of the card's size (a fan card's features come from the part that shows; tuned on the
# fan family's seed 11). Lower frees more features for rival fits on the same card.
SHOWN_PART_MARGIN = 0.1
# ... unless that box covers more than this share of the card: then the whole card is spent
# (whole cards' boxes cover 0.9+, a fan card showing 50 % about 0.6; seed 2026's hard scene
# 40 lost a whole card to a rival fit when only the box was spent). Lower: fan cards missed.
SHOWN_PART_WHOLE = 0.8
FIT_REPROJECTION = 8.0  # work-image px: a match this close to the fitted card counts (hand-set)
FIT_ITERATIONS = 1000  # RANSAC rounds of the affine fit
FIT_CONFIDENCE = 0.995  # RANSAC stop confidence of the affine fit
# When the affine fit explains less than this share of the matches (and at least
# PERSPECTIVE_MIN_INLIERS), a perspective fit is tried (steep photos; hand-set) ...
PERSPECTIVE_BELOW_SHARE = 0.8
PERSPECTIVE_MIN_INLIERS = 12  # matches a perspective fit needs (fewer: wild fits of noise)
PERSPECTIVE_ITERATIONS = 500  # ... with this many RANSAC rounds ...
PERSPECTIVE_GAIN = 1.15  # ... and kept when it explains this much more (less = wild fits kept)
MIN_CARD_AREA = 900.0  # work px^2: a fitted card smaller than this is noise (hand-set, 30 x 30)

# -- second look: a straight-down view of a steep photo -----------------------------------------
# How much the photo's scale varies over the picture before the table is flattened for a
# second look (hand-set; lower: more photos pay for a second find).
STEEP_SCALE_RATIO = 1.35
TABLE_VIEW_GRID = 5  # photo points per side used to size the flat view
TABLE_VIEW_ZOOM = 1.1  # the flat view keeps the photo's pixel count times this
TABLE_VIEW_MAX_SIDE = 2200.0  # px: cap on the flat view (cost)
# ... and searched only where some card-sized square away from the named cards (grown by
# LEFTOVER_COVER_MARGIN) holds at least this many first-look features: a card the first look saw
# but did not name. Every card the view added came with a crowd of 83+ (seed 2026's 240 scenes,
# seed 11's 90, and the 30 profile scenes and 5 real photos under each of the 25 lights); of
# the views that added nothing, half held under 30 (most 0: every card named) and cost ~0.1 s
# each. A table busy enough to crowd features keeps the search running.
VIEW_MIN_FIRST_FEATURES = 30
SAME_CARD_IOU = 0.3  # overlap (IoU) above which two finds are one card (also dedupe of names)
# Two names overlapping under this IoU are two cards in layers (a fan shows 35-50 % of each card:
# neighbours' whole-card fits overlap 0.3-0.5); tuned on the fan family's seed 11. Higher keeps
# a second name on one card; lower drops fanned cards.
LAYERED_MAX_IOU = 0.6

# -- layers: cards lying partly over each other (vision.layers) -------------------------------
# Of two overlapping cards the one on top is the one whose name at least this many of the
# photo's voting features in the shared part vote for (and no fewer than for the other's).
LAYER_MIN_VOTERS = 3
# A card counts as lying over another when it covers more than this share of it.
LAYER_MIN_OVERLAP = 0.1
# Canonical px the part that shows is shrunk from a covering card's edge (its corners and
# edge features straddle both cards).
LAYER_EDGE_PX = 6
# A weakly named card under named cards is named again from the part that shows when at
# least this share of it shows (a fan shows 35-50 %).
LAYER_MIN_SHOWN = 0.2
# ... and, still unnamed, is reported unknown when at least this many of the photo's voting
# features in the part that shows vote for one name that no named card has (features a named
# card left over, fitted to a quad hanging off it, vote on that card, not beside it). Fan
# family seeds 11 and 2026: the room cards, whose references keep few features on the strip
# that shows, hold 14-60 such votes there.
LAYER_MIN_SHOWN_VOTERS = 8
# A fan the features missed cards of (vision.layers.fill_fan_gaps): cards found in one hand, at
# least FAN_MIN_CARDS of them, stepping at most FAN_MAX_STEP of a card's width from one to the
# next (a fan shows 35-50 % of each card; cards lying apart step 1.45 widths); a gap within
# FAN_STEP_TOLERANCE steps of a whole number of steps holds that many cards less one.
FAN_MIN_CARDS = 3
FAN_MAX_STEP = 0.6
FAN_MIN_STEP = 0.2  # closer centres are two reports of one card, not a step
# A guessed card still unnamed is reported unknown when the part that shows holds at least this
# many photo features per 10,000 work px (fan family seeds 11 and 2026: a missed end card 147,
# the bare table past a hand's ends 0-0.6; leftovers' note: card print 25-145).
FAN_SHOWN_MIN_DENSITY = 20.0
# A hand of which no two named cards overlap (every other card found) is a fan when its cards
# turn as they step, each step the same way by FAN_MIN_TURN to FAN_MAX_TURN radians per card
# width moved, within FAN_TURN_SPREAD times of each other (the fan family turns 0.28-0.45 rad
# per width; cards lying apart turn at random). Its step is then one of at least
# FAN_MIN_EVEN_STEP widths that every gap is a whole number of, the fewest cards missing.
# Hand-set on the fan family's seed 2028 photo 5 (0.31 rad per width, steps 0.44 widths).
FAN_MIN_TURN = 0.1
FAN_MAX_TURN = 1.2
FAN_TURN_SPREAD = 1.5
FAN_MIN_EVEN_STEP = 0.25
FAN_MIN_ALONG = 0.7  # |cos| of every step with its two cards' left-to-right direction at least
# The gap's tolerance: an arc's steps differ (fan family seed 2026 on the Pi's stack: single
# steps 0.27-0.33 card widths around a gap of one missed card at 0.75, 2.42 steps). Higher:
# cards guessed between neighbours spread a little unevenly (named or dropped, seldom kept).
FAN_STEP_TOLERANCE = 0.45
# A report lying this much inside the part of another report that shows is an outline of that
# part, not a card (tape family seed 2027 photo 2: 0.9+; a hand's neighbours overlap by half).
UNKNOWN_IN_VISIBLE_SHARE = 0.8
UNKNOWN_MASK_MAX_PX = 4_000_000  # px: larger boxes are compared no further (no memory spike)
LAYER_POLYGON_PX = 2.0  # canonical px: the part that shows is outlined to within this
# A tape (vision.columns: a Mixtape's columns, each card overlapping the bottom of the one above
# it): two cards lie in one column when turned alike (the cosine of their top edges at least
# TAPE_MIN_ALIGN, about 10 degrees), as wide within TAPE_MAX_SIZE_CHANGE, centres across the
# column within TAPE_MAX_ASTRAY of a card's width (a fan's cards step 0.35-0.5 widths across),
# the lower TAPE_MIN_STEP-TAPE_MAX_STEP card heights below the upper (the rule covers 8.5 % of
# a card, a tight tuck 45 %). Such a hand is no fan: its gaps are not filled across columns.
TAPE_MIN_ALIGN = 0.985
TAPE_MAX_SIZE_CHANGE = 0.15
TAPE_MAX_ASTRAY = 0.15
TAPE_MIN_STEP = 0.45
TAPE_MAX_STEP = 0.97

# -- name: a rectified card against its shortlist -----------------------------------------------
# Canonical px a rectified feature may sit from its reference's (hand-set with the grid of
# positional_matches; smaller misses cards with rough corners, larger slows naming).
POSITION_RADIUS = 24.0
# ORB budget and pyramid levels of a reference card (1.3x apart: down to 0.35x, for cards
# that are small in the photo). Stored in galleries: changing them needs re-enrolment.
REFERENCE_FEATURES = 500  # ORB budget of a reference (more: bigger gallery, slower naming)
REFERENCE_LEVELS = 5  # its pyramid levels (fewer: small cards in photos go unnamed)
PATCH_FEATURES = 500  # ORB budget of a rectified card (same as a reference's)
CARD_FAST_THRESHOLD = 12  # FAST contrast on rectified cards and references (hand-set)
CARD_SCALE_FACTOR = 1.3  # ORB pyramid step on cards (references: 5 levels, down to 0.35x)
CARD_LEVELS = 3  # ORB pyramid levels of a rectified card
MIN_NAME_INLIERS = 12  # fewer geometric inliers never name a card (RANSAC noise floor)
NAME_REPROJECTION = 5.0  # canonical px of the naming homography's fit (USAC; hand-set)
NAME_ITERATIONS = 2000  # its USAC rounds at most (OpenCV's default; it stops far earlier)
NAME_CONFIDENCE = 0.995  # its USAC stop confidence (OpenCV's default)
RIVALS_CHECKED = 3  # other-name references checked geometrically (hand-set; sets the rival)
SIGNATURE_SHORTLIST = 2  # closest whole-card signatures added to every naming's shortlist
# Inliers on the card's outer border are not counted (every card has the same frame): the
# interior is this fraction of the card's width / height from each edge (hand-set, measured
# on the generated frames and the real scans' borders).
INTERIOR_X = 0.1  # share of the width left out each side (larger: fewer inliers per card)
INTERIOR_Y = 0.07  # share of the height left out top and bottom (same trade-off)
# ... unless the gallery shows a band feature is the reference's own (vision.frame): no other
# name's reference has a feature within FRAME_SHARE_RADIUS canonical px of it with a close
# descriptor. That is the naming fit's own tolerance: a card of the same layout printed a few px
# off lines up within it (a borderless room's title bar against a framed room's: at 3 px it
# kept 16 inliers on Charred Foyer's strip of a seed 2026 fan and the card went unknown; at 8 px
# Smoky Lounge keeps too few of its title's features). It takes cards of the same layout to
# tell: a reference counts its band only when at least FRAME_MIN_SIBLINGS other names share
# FRAME_SIBLING_FEATURES of its band features or more (hand-set; fewer: small galleries count
# frame features of a layout enrolled once).
FRAME_SHARE_RADIUS = NAME_REPROJECTION
FRAME_SIBLING_FEATURES = 10
FRAME_MIN_SIBLINGS = 3
# Descriptor-only matching (an outline that may be an inner frame or a sleeve): the nearest
# reference feature must beat the second by this ratio (Lowe's usual 0.8).
LOOSE_RATIO = 0.8
# Refined corners from the naming fit replace the found ones only when they still overlap
# them this much (a fit on few inliers can swing; hand-set).
REFINE_MIN_IOU = 0.45
# ... and, for corners a fit of features found (not an outline's, which can be far off), only
# when the fit has MIN_NAME_INLIERS inliers and their hull covers at least this share of
# the card. A homography fitted to a strip of a card (a fan's title line, one column of a
# room card) explains its inliers but swings the corners it extrapolates to. Fits of seeds
# 11, 2026-2028 and 2031-2034 (both stacks, all families; corner error against the truth):
# of right names covering under 0.15 the fit moved 32 of 86 more than 8 px further off (Pi
# seed 2034 fan photo 8: 25 -> 108 px, and its refit 228 px, which lost two neighbours) and
# 11 nearer; above 0.15 as many nearer as further. Fits under 12 inliers: 165 of 247 further
# off, 21 nearer. Higher: more cards keep found corners; lower: more corners swing.
REFINE_MIN_COVER = 0.15
# A fit that does not pin the corners still seeds the refit below; the refit (and its corners)
# is kept when its inliers spread over this many times the share of the card the seed's did.
# Pi seed 2034's fan photo 8: a refit at a strip's swung corners lined up the same title line
# (x 1.06); a card found 12 degrees off in the tests lines up x 1.37 (hand-set between them).
REFIT_MIN_SPREAD = 1.2
# A card the photo's own features name (vision.name, no cut-out) keeps that naming only when
# its fitted corners lie within this fraction of the card's long side of where the find step
# put them; further, the fit leans on a part of the card (a fan shows 35-50 % of it) and is
# cut out and named again. Seed 2034's fan photo 1: a fit 46 px (0.10) off turned a named card
# and pushed its neighbours out of the photo's answers. The find step's own corners are up to
# ~0.06 off (the same card on the Pi's stack: a fit 0.061 from them was the truer one, and
# cutting it out lost a neighbour), so the limit sits above that; of 330 cards so named on
# seeds 2026 and 2034, 4 lie past 0.08.
PHOTO_NAMING_MAX_SHIFT = 0.08
# A name below this confidence is fitted again at the corners its own inliers give (a card
# found from a few features of a steep or dim photo is rectified a little off: seed-2026
# generated scene 27 under exposure x0.35 gains inliers so). Lower: fewer refits, faster.
REFIT_BELOW = 0.9
# Soft rectified cards (sharpness below SHARPEN_BELOW) are sharpened by an unsharp mask of
# this strength and blur before features are taken (hand-set on small blurred dev cards).
SHARPEN_BELOW = 0.5  # detect.sharpness under which a card is sharpened (higher: more work)
SHARPEN_AMOUNT = 2.0  # unsharp-mask strength (higher: noise becomes features)
SHARPEN_SIGMA = 1.5  # unsharp-mask blur, canonical px (the detail scale restored)
CANDIDATES_LISTED = 5  # names in a pick-list

# -- name: how sure (confidence_from_inliers) ----------------------------------------------------
# confidence = (1 - exp(-margin / MARGIN_SCALE)) * evidence, margin = best - rival - MARGIN_FLOOR,
# evidence = (best - EVIDENCE_FLOOR - EVIDENCE_RIVAL_SHARE * rival) / EVIDENCE_SPAN, clipped.
# Tuned on dev scenes and two held-out splits: not-enrolled cards with a weak rival reach ~21
# inliers, right names on the benchmark start at ~55 (1st percentile). Raising the floors
# turns small right cards unknown; lowering them names not-enrolled cards.
MARGIN_FLOOR = 6  # inliers over the rival that count for nothing (higher: fewer names)
MARGIN_SCALE = 12.0  # inliers of margin for 63 % of full confidence (higher: less sure)
EVIDENCE_FLOOR = 14  # inliers any name gets by chance (higher: small cards unknown)
EVIDENCE_RIVAL_SHARE = 0.5  # share of the rival's inliers the name must also beat
EVIDENCE_SPAN = 16.0  # inliers past the floor for full evidence (higher: less sure)

# -- look: the card's appearance ------------------------------------------------------------------
# A look is the card at about 1/8 size. Stored in galleries: changing it needs re-enrolment.
LOOK_SIZE = (42, 58)  # width, height before a 2-px margin is cut (the look is 38 x 54)
LOOK_MARGIN = 2  # px cut off each side of a look (the card's outline wobbles there)
LOOK_CELLS = (4, 3)  # rows, columns of the cell grid of the last word (12 cells of 13 x 12)
LOOK_CELL = (13, 12)  # px (height, width) of one cell: the look's grid with a remainder cut
LOOK_PATCH_DIVISOR = 4  # the look is taken from a card rectified at 1/4 canonical size
SIGNATURE_SIZE = (24, 33)  # whole-card signature's luminance layout (w, h; shortlist only)
SIGNATURE_CHROMA_SIZE = (6, 8)  # ... and its coarse colour layout
SIGNATURE_CHROMA_WEIGHT = 0.5  # colour's weight against luminance in the signature
SIGNATURE_CHROMA_DAMPING = 20.0  # keeps a grey card's chroma from being blown up to unit length
# Looks are used only in galleries of at least this many references: the "typical card" taken
# away from every look means little in a small gallery (tests: 16-card galleries).
LOOK_MIN_GALLERY = 5
# The second opinion on a name the features are not sure of (confidence < LOOSE_CONFIDENCE);
# tuned on dev scenes and held-out real cards. The features must back the name ...
LOOK_MIN_INLIERS = 16  # ... with this many inliers ...
LOOK_MIN_MARGIN = 8  # ... and this many more than any other name; then the look must be ...
LOOK_MIN_SIMILARITY = 0.7  # ... this close to the named reference ...
LOOK_MIN_LEAD = 0.15  # ... and this much closer than to any other name's (then conf >= 0.5)
LOOK_MAX_CONFIDENCE = 0.9  # a look alone never makes a name certain (printings share art)
# A name is doubted when the look is this far from it and this much closer to another name's
# (held-out cycles of lands and creatures; raising the gap lets more of them be named).
LOOK_VETO_SIMILARITY = 0.25  # the look is at most this close to the named card ...
LOOK_VETO_GAP = 0.25  # ... and this much closer to another name's
# The last word on every named card, cell by cell: right names scored 0.54 and up on dev
# scenes (0.89+ on the real photos), not-enrolled cards named as their cycle 0.27-0.55.
LOOK_MIN_CELLS_SIMILARITY = 0.45
# The last word needs a card's cell correlations exactly only for its own name's references and
# for those that could beat them; the rest are bounded first along this many cosine patterns of
# a cell, those holding most of the gallery's cells (vision.look.cell_score_bounds; fewer:
# looser bounds, more references worked out). 48: of seed 2026's fan/small/cloth/clutter/
# strangers cards 85 % need no other reference worked out, 7 a card on average (32: 11.5;
# 24: 17). Working out the patterns costs ~0.15 s of CPU for 372 references, once a gallery.
LOOK_BOUND_BASIS = 48
# Added to every bound against float32 rounding (errors ~1e-6): a bound never falls below the
# exact correlation it stands for. Costs nothing but a few more exact references.
LOOK_BOUND_SLACK = 0.01
# The last word compares only the cells no other named card covers (a fan's lower cards), when
# at least this many are left (a fan card showing 35 % of itself keeps its left column: 4);
# fewer and the card keeps all 12 (tuned on the fan family's seed 11; lower judges a card on
# too little of it).
LOOK_MIN_VISIBLE_CELLS = 4
# A named card overlapping another by more than this IoU lies in a hand (a fan), and its look
# is judged on what shows (tuned on the fan family's seed 11; any real overlap counts).
HAND_MIN_IOU = 0.05
# ... and when another name lined up at least this share of the name's inliers (shared rules
# text and frame), the look must be at least this close. Right names reached a share of 0.69
# at most (seed-2026 benchmark and held-out split, both stacks; their looks 0.8+), not-enrolled
# cards named as their cycle 0.66-0.83 with looks 0.16-0.64. Strangers family seed 2027: an
# Enduring Courage (not enrolled) was named Enduring Vitality at share 0.67, look 0.57 (its
# death paragraph and type line sit where Vitality's do; 0.75 let it through). A share of 0.5
# loses a real card under exposure x1.5 (share 0.57, look 0.52). Lower: real cards under odd
# light need a close look; higher: cycle-mates named.
LOOK_SHARED_RIVAL_SHARE = 0.6  # the rival's share of inliers that makes the look decide
LOOK_SHARED_MIN_CELLS_SIMILARITY = 0.7  # how close the look must then be (lower: cycles named)

# -- outlines: card-shaped loops in colour edges (detect.find_card_quads) --------------------------
OUTLINE_LONG_SIDE = 1000  # px: edges are searched on a copy about this big (hand-set, speed)
# A picture is first halved by 2x2 averages when its half keeps at least this share of the
# searched copy's pixels across (a 1640-px photo's 820 px for a 1000-px copy), then brought to
# the searched size bilinearly (hand-set; see detect._outline_copy).
OUTLINE_HALF_DETAIL = 0.8
OUTLINE_BLUR = 5  # Gaussian kernel before the colour gradient (hand-set)
# Canny hysteresis pairs on the colour gradient, three sensitivities so both crisp and faint
# card edges close (hand-set; lower pairs add loops in wood grain, higher lose faint edges).
CANNY_THRESHOLDS = ((20, 60), (40, 120), (80, 200))
# Share of the most sensitive map's pixels that are edges beyond which it is a table's grain
# and is not traced (detect._grain). Wood far off: 0.15-0.20; photos whose cards only that map
# outlined (shaken, faint edges): 0.12 at most; shaken photos on wood: up to 0.15 (hand-set).
GRAIN_EDGE_SHARE = 0.15
GRAIN_BAND_ROWS = 32  # px: the share is measured on bands of rows this high (hand-set) ...
GRAIN_BAND_EVERY = 4  # ... one in this many (a quarter of the map: within 1 % of the whole)
MIN_CONTOUR_POINTS = 8  # shorter contours are specks
# Polygon fit tolerances (fraction of the hull's perimeter), tried in turn until 4 corners.
QUAD_EPSILONS = (0.02, 0.035, 0.05)
QUAD_FILL = 0.85  # the hull must fill its fitted quadrilateral this much (steep cards ~0.9)
MIN_CARD_FRACTION = 0.04  # smallest card side (x 1.5) as a share of the photo's short side
MIN_SIDE_STRETCH = 1.5  # the x 1.5 above: an outline's short side must exceed the fraction
# this much (hand-set on the dev scenes; lower lets small loops of wood grain through)
EDGE_CLOSE_PX = 3  # px: Canny edges are dilated by this square before contours, to close
# corners the edge misses by a pixel (hand-set; larger merges touching cards into one loop)
MAX_CARD_AREA = 0.6  # a loop covering more of the picture than this is the table or photo
PADDING_SCAN_SIDE = 250  # px: padding is measured on a copy this big
PADDING_TOLERANCE = 10  # grey levels: a padding row/column is this uniform ...
PADDING_SHARE = 0.98  # ... over this share of its pixels
PADDING_WHITE = 225  # padding is whiter than this or darker than PADDING_BLACK (a plain
PADDING_BLACK = 30  # tablecloth is not padding: real photos sit on a white canvas)
BORDER_MARGIN = 3.0  # px (plus one padding-scan pixel): an outline this near is the border
NESTED_DEDUPE_IOU = 0.6  # outlines found at several sensitivities are one when they overlap this
# An unnamed outline must show a real edge (colour gradient above EDGE_STRENGTH within a few
# px) along this share of each side's middle 70% (hand-set; lower: table loops reported).
MIN_EDGE_SUPPORT = 0.5
EDGE_STRENGTH = 60.0  # colour-gradient strength of a real edge (hand-set; lower: loops pass)
EDGE_VIEW_SIDE = 400.0  # px: an outline's edges are checked at about this size
# A blurred outline the size of the named cards that fails the edge check is looked at again
# at this size, where a 14-26 px smear is a ramp of a few pixels (a card that moved as the
# photo was taken: all six such outlines on generated hands reach 0.96+ at 120 px, 0-0.42 at
# 400). Hand-set; larger: fewer smeared cards reported; smaller: table loops may pass.
SMEARED_EDGE_VIEW_SIDE = 120.0
# ... and there it must show an edge along this share of each side: a smeared card's straight
# border does all round (0.96+), a loop in wood grain of a card's size only in part (0.58 on
# a small-card photo, Pi stack, seed 2043, where 0.5 reported it). Hand-set.
SMEARED_MIN_EDGE_SUPPORT = 0.9
# ... and it must stand out from the table around it (unknown.stands_out): the median Lab
# colour of its middle against a ring around it, named cards left out. Smeared cards of the
# `moving` family (seeds 2026, 2028): 44-95; a card-sized loop in wood grain: 4. Hand-set.
STANDS_OUT_MIN_LAB = 20.0
STANDS_OUT_MIDDLE = 0.7  # the middle's share of the quad (about its centre)
STANDS_OUT_RING = 0.25  # how far past the quad's corners the ring reaches (share of its size)
STANDS_OUT_MIN_RING_PX = 50  # fewer table pixels around it than this: nothing to compare with
SMEARED_AREA_RATIO = (0.75, 1.35)  # its area against the named cards' median (a smear adds
# ~5-15 %); hand-set
EDGE_SAMPLES = 24  # points checked per side
EDGE_SIDE_ENDS = 0.15  # share of each side left out at both ends (corners round off and
# cross the next card; hand-set; smaller lets rounded corners fail a true card's check)
EDGE_CROP_MARGIN = 8  # px around an outline cropped for its edge check (room for the leeway)
EDGE_LEEWAY_PX = 5  # px: the edge magnitude is dilated this much, so an outline a few pixels
# off its edge still finds it (hand-set; larger lets a near-by table line stand in for an edge)
# Plausible card shapes, seen from up to ~45 degrees (detect.plausible_card), for an outline /
# a fit of the card's own features: shortest side (px), aspect vs a card's (short / long), how
# much opposite sides may differ, and the |cos| of the corner angles. Dev scenes: a card near
# the camera of a 45-degree photo looks square, a fitted one thinner still.
MIN_SIDE = 8  # px: shortest side (smaller: specks pass)
ASPECT_SHARE = (0.62, 0.45)  # least short/long vs a card's, outline / fit (lower: squares pass)
OPPOSITE_SPREAD = (2.0, 3.0)  # most ratio of opposite sides, outline / fit (higher: wild shapes)
CORNER_COS = (0.85, 0.92)  # most |cos| of a corner angle, outline / fit (higher: slivers)
SCAN_ASPECT_TOLERANCE = 0.03  # an image this close to a card's proportions is a scan
MIN_PHOTO_CARD_SHARE = 0.05  # enrolling from a photo: the card covers at least this share

# -- outlines: which ones are tried and how ------------------------------------------------
EXPLAINED_IOU = 0.25  # an outline overlapping a named card this much is that card
SQUARISH = 0.8  # sides' ratio above which an outline's long sides are uncertain: try four turns
MAX_OUTLINE_TRIES = 20  # namings per photo before outlines get two turns only (worst case ~1.6 s)
SETTLED_INLIERS = 40  # an outline named this surely is not tried in its other turns
# An outline holding fewer of the photo's voting features than this is not named (still
# reported by its edges): every outline named on seeds 11 and 2026 and the 60 scenes held
# >= 2; the ones holding none were wood knots, blurred streaks and a dark stranger, ~50 ms
# each to name at confidence 0.
OUTLINE_MIN_VOTES = 1
# The bar for a descriptor-only name and for a leftover window's (guessed corners), and "sure"
# for the look checks. Leftover names: right ones 0.88-0.92 on dev seeds 7 and 11 (one of five
# lost to unknown), a held-out Verge named as its enrolled cycle-mate at 0.83.
LOOSE_CONFIDENCE = 0.9
OUTLINE_AGREEMENT = 0.6  # IoU of a descriptor-only fit with its outline for the ordinary bar
INDEX_SHORTLIST = 6  # references an outline's own features vote for, added to its shortlist
INDEX_MIN_VOTES = 3  # ... when they vote at least this often
OUTLINE_SIGNATURE_SHORTLIST = 8  # closest signatures added to an outline's shortlist
VOTE_SHORTLIST = 4  # references voted inside an outline by the photo's features
# Unnamed outlines far from the named cards' size are the table's pattern (0.3-3x the median
# named card's area; hand-set).
UNNAMED_AREA_RATIO = (0.3, 3.0)
UNKNOWN_SAME_IOU = 0.4  # an unknown outline overlapping a reported unknown this much is it
WEAK_SAME_IOU = 0.3  # ... and a weak feature find overlapping one
# A found-but-unnamed card with this many inliers is reported unknown (hand-set; fewer
# inliers would report chance fits on the table's pattern).
WEAK_CARD_INLIERS = 10
# Once a card is named its perspective gives the table plane; an outline on it must be
# card-sized: sides 0.55-1.5x a card's, corners within ~20 degrees of square (|cos| 0.35).
PLANE_SIZE_TOLERANCE = (0.55, 1.5)  # sides' range vs a card's on the plane
PLANE_MAX_COS = 0.35  # most |cos| of a corner on the plane
# The last look's finds fit tighter: sides 0.8-1.25x, proportions within 8 %, corners ~12 deg.
PLANE_TIGHT_TOLERANCE = (0.8, 1.25)  # sides' range (looser: table patches named)
PLANE_TIGHT_ASPECT = 0.08  # proportions' tolerance
PLANE_TIGHT_COS = 0.2  # most |cos| of a corner
# A fanned card's strip placed on the plane (vision.plane.placed_on_plane): its matches must
# fit a turned, moved card within this many canonical px (root mean square; the naming's
# own fit allows NAME_REPROJECTION a match).
STRIP_PLANE_RESIDUAL = 6.0
# A partly hidden card's visible edge: square at both ends (|cos| < 0.2) and a card's side
# long within 12 % (dev scenes: +1 hard card, one false card fewer).
COMPLETION_MAX_COS = 0.2  # most |cos| at both ends of the visible edge
COMPLETION_LENGTH_TOLERANCE = 0.12  # the edge's length vs a card's side (looser: false cards)
COMPLETION_NEW_IOU = 0.7  # a completed card overlapping an outline this much is that outline

# -- last look: a more sensitive search where nothing is named -------------------------------------
REST_FEATURES = 2000  # ORB budget of the last look
SENSITIVE_FAST_THRESHOLD = 6  # its FAST threshold (small or blurred cards; hard scenes)
# Its pyramid levels: the finest 3 of the photo's 6 (seeds 2026 and 11). More: a third more of
# its time, spent on big things the first look already named, and a few small cards lost.
REST_LEVELS = 3
REST_MIN_UNCOVERED = 0.05  # run only when at least this share of the photo holds no named card
# ... and, when every card found is named, only where some card-sized square away from the
# named cards (grown by LEFTOVER_COVER_MARGIN) holds at least this many first-look features: a
# card the first look saw but could not name. Every card the last look added with no unknown
# card reported came with such a crowd of 75+ (seed 2026, 240 scenes; seed 11, 90 scenes);
# generated tables scatter 0-30 in most scenes, where the search is skipped (a busy table
# keeps it running). Cards reported unknown do not count as a crowd; one the first look
# under-sampled sends the search all the same: under a side lamp (a tuning light) it named a
# dim card reported unknown whose crowd was only 13.
REST_MIN_FIRST_FEATURES = 30
# ... and then only in a photo taken steeply or blurred (its best named card: unknown.blurred),
# or where, away from the named and reported cards, at least this many of the first look's
# votes for one reference lie as its features lie on a card of a card's size (one scale, turn
# and shift; a near miss of the first look's fit, which needs MIN_FIND_INLIERS). The cards it
# added in sharp photos seen from above came with 4-7 such votes (family photos of seeds
# 2026/2032/2034/2037/2038); the props' crowds of the clutter photos (phone, score pad, dice,
# coins) with at most 3: the search ran on 27 of those 30 photos (seeds 2026/2032/2034) and
# found nothing; now on 5 (at 4 votes on 1: 3 keeps a vote to spare).
REST_NEAR_MISS_VOTES = 3
# Steep: a card's size varies this much over the photo (the plane's scale, most over least).
# A far card there is small and foreshortened and its first-look features hardly vote: 10 of
# the 11 cards the search added to the generated scenes (seed 2026, 240 scenes) lay in photos
# of 1.43-3.5 with no near miss. The clutter photos it ran on: 1.01-1.21 (one of 46 at 1.39).
# A shaken photo's cards are smeared likewise: the card it added on the Pi's stack (seed 2034,
# motion photo 1, 1.29) had no near miss, and its named cards were all blurred (no clutter one).
REST_STEEP_SCALE_RATIO = 1.3
# A card reported unknown sends the last look too when the first look saw fewer features on
# it than this: the dim card above had ~13, while a sharp stranger or a shaken card it saw in
# full holds 300-1600 (seeds 2026 and 11), and the search never named one of those (it ran
# for ~50 ms on a third of the stranger and motion photos and named nothing).
REST_UNDERSAMPLED_FEATURES = 100
REST_INDEX_SHORTLIST = 6  # last-look finds are checked against as many rivals as outlines
REST_SIGNATURE_SHORTLIST = 8  # ... and as many closest signatures (fewer: faster, less sure)

# -- leftovers (vision.leftovers): features no card explains, crowded over a card --------------
# Measured on dev scenes (seed 101, hard, 6 scans + 1 generated stranger): 25-145 photo
# features per 10,000 work px on a card, 0-3 on the generated tables. Lower density: table
# texture reported as cards; higher: sparse cards (a plain land) missed.
LEFTOVER_DENSITY = 12.0  # features per 10,000 work px, averaged over the window below
LEFTOVER_WINDOW = 0.35  # the averaging window's side, in card short sides (hand-set)
LEFTOVER_CELLS_PER_SIDE = 8  # grid cells per card short side for counting (resolution only)
# Named and reported cards are grown by this share of a card's short side before their features
# are set aside (their corners can be a few px off: their border features must not be orphans).
LEFTOVER_COVER_MARGIN = 0.08
LEFTOVER_MIN_FEATURES = 30  # fewer orphan features are a scrap, not a card (dev scenes)
# A card window's crowd (on the table plane) covers at least this share of a card: a card half
# under another still does. Dev seeds 7 (held-out) and 11: cards 0.50 and up, the stray
# corners and card halves whose centre lies elsewhere 0.30-0.47 (0.3 reported those).
LEFTOVER_MIN_AREA = 0.45
# ... and its quad (its rectangle on the table plane as the photo sees it) holds at least this
# many free features per 10,000 work px, crowded cells or not: cards 21 and up on dev seeds 7
# and 11, the hard scenes' confetti table 7-19 where it passes the other tests (measured on the
# crowded features over the photo's upright rectangle, which a card in perspective does not
# fill: the lighting scene 27's stranger holds 25 per 10,000 px of its quad under the warm
# cast, 22 at exposure x1.0, and its crowd 19.7 and 16.5 of that rectangle).
LEFTOVER_WINDOW_DENSITY = 20.0
# ... and its features this many times as crowded as the free table in a ring around it (the
# generated confetti table made false cards without it; hand-set on dev seeds 30-49).
LEFTOVER_OVER_TABLE = 4.0
LEFTOVER_RING = 1.8  # the ring's outer rectangle, times the crowd's (hand-set)
# A card's print fills its rectangle: the crowd's hull covers at least this share of its
# bounding rectangle, which is at most this elongated (a card 1.4; half hidden lengthwise 2.8).
# Dev seeds 32 and 101: strangers 0.64-0.94 and 1.3-2.1, confetti crowds 0.56/1.8 and 0.65/3.7.
LEFTOVER_MIN_FILL = 0.6  # least hull share of its rectangle (lower: confetti crowds pass)
LEFTOVER_MAX_ELONGATION = 2.5  # most long/short of the rectangle (higher: streaks pass)
LEFTOVER_GROW = 1.1  # features stop short of a card's edge: the crowd's rectangle grown by this
# Crowded features are searched for card-sized windows on the table plane, turned in
# steps of this many degrees (hand-set: a card 7.5 degrees off still has ~90 % in the window) ...
LEFTOVER_WINDOW_TURN = 15.0
LEFTOVER_MAX_WINDOWS = 8  # ... at most this many windows a photo (a 7-card table needs ~3)
LEFTOVER_MAX_GRID = 250_000  # cells: crowds spread wider on the plane are a plane seen edge-on
