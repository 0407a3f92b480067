package org.nvimpam.nvim;

/** A Neovim buffer handle, sent as a msgpack ext value. */
public record Buffer(long id) {}
