"""A plugin without a pass or a dialect: an error."""

VALUE = 1
