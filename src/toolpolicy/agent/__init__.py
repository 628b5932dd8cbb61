"""Layer 6: the agent loop and model clients.

A ``ModelClient`` (``ScriptedModel`` or ``OpenAIChatModel``) proposes tool calls; the
``AgentRunner`` sends each through the policy's gate and answers it with a paired tool
message; ``build_agent`` is the composition root that wires them to a ``ToolPolicy``.
"""

from .compose import build_agent
from .errors import (
    AgentLimitError,
    AgentRunError,
    IncompleteModelReplyError,
    ModelRequestError,
    ModelResponseError,
    ToolPairingError,
)
from .loop import AgentRunner, RunResult, ToolGate
from .messages import (
    AssistantMessage,
    Message,
    SystemMessage,
    ToolMessage,
    UserMessage,
    chat_messages,
    validate_tool_pairing,
)
from .model import FinishReason, ModelClient, ModelReply
from .openai_client import OpenAIChatModel
from .scripted import ScriptedModel

__all__ = [
    "AgentLimitError",
    "AgentRunError",
    "AgentRunner",
    "AssistantMessage",
    "FinishReason",
    "IncompleteModelReplyError",
    "Message",
    "ModelClient",
    "ModelReply",
    "ModelRequestError",
    "ModelResponseError",
    "OpenAIChatModel",
    "RunResult",
    "ScriptedModel",
    "SystemMessage",
    "ToolGate",
    "ToolMessage",
    "ToolPairingError",
    "UserMessage",
    "build_agent",
    "chat_messages",
    "validate_tool_pairing",
]
