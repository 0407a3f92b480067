package org.nvimpam.rpc;

/** An {@code nvim_error_event} notification: a notification we sent failed inside Neovim. */
public record NvimErrorEvent(ErrorType type, String message) {}
