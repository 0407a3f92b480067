package org.nvimpam.nvim;

/** A Neovim window handle, sent as a msgpack ext value. */
public record Window(long id) {}
