"""The colours every figure of vosim shares (plots, comparison figures): the Okabe-Ito palette
and the colour of the k-th method or series."""

# Okabe-Ito: black, orange, sky blue, bluish green, yellow, blue, vermillion, reddish purple.
OKABE_ITO = ("#000000", "#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7")

#: Method colours, in the order methods appear (black and yellow are kept for marks and are hard to see).
SERIES_COLORS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9")


def series_color(k: int) -> str:
    return SERIES_COLORS[k % len(SERIES_COLORS)]
