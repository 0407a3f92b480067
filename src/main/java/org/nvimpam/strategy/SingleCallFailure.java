package org.nvimpam.strategy;

import org.nvimpam.fold.FoldPlan;
import org.nvimpam.rpc.NvimErrorException;

/** Turns the error of a one-call strategy into a FoldStrategyException naming the failed fold. */
final class SingleCallFailure {
  private SingleCallFailure() {}

  static FoldStrategyException of(String strategy, FoldPlan plan, Throwable cause) {
    String message = cause instanceof NvimErrorException e ? e.nvimMessage() : String.valueOf(cause.getMessage());
    return new FoldStrategyException(strategy, PlanPayload.failedFold(message), message, cause);
  }
}
