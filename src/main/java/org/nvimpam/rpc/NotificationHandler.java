package org.nvimpam.rpc;

import org.msgpack.core.MessageUnpacker;

/**
 * Handles one notification from the peer. Runs on the connection's single dispatcher thread, in
 * arrival order; {@code params} is positioned at the params array (header not yet read) and is
 * valid only during the call.
 */
@FunctionalInterface
public interface NotificationHandler {
  void handle(MessageUnpacker params) throws Exception;
}
