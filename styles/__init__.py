"""Textual stylesheets (.tcss), shipped inside the wheel as fivetowers.styles."""
