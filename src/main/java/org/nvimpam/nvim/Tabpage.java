package org.nvimpam.nvim;

/** A Neovim tabpage handle, sent as a msgpack ext value. */
public record Tabpage(long id) {}
