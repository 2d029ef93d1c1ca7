"""`SceneAgent`: one conversation about a scene — a planner, the tools, the history and what was asked."""

from __future__ import annotations

import logging
import threading
from dataclasses import dataclass, field

from scene_agent.agent.control import RunControl
from scene_agent.agent.events import AgentEvent, EventLog, EventSink, Final
from scene_agent.agent.interaction import Interaction
from scene_agent.agent.planner import Exchange, Planner, Reply, Turn
from scene_agent.agent.records import ConversationRecords
from scene_agent.agent.toolbox import Toolbox
from scene_agent.config import Settings, load_language, load_model_settings, load_settings
from scene_agent.errors import SceneAgentError
from scene_agent.language.say import Words
from scene_agent.language.words import Lang, detect_language
from scene_agent.resolution.viewpoint import Viewpoint
from scene_agent.scene.loader import Scene
from scene_agent.selection.channel import SelectionChannel, open_channel
from scene_agent.selection.session import DEFAULT_TIMEOUT_S
from scene_agent.tools.context import ToolContext
from scene_agent.tools.question import DEFAULT_QUESTION_TIMEOUT_S, QuestionChannel, QuestionDesk

log = logging.getLogger(__name__)
EMPTY_QUESTION = Words("The question is empty: ask something about the scene, e.g. 'what's the color of the sofa?'.",
                       "问题为空：请提问关于场景的问题，例如“沙发是什么颜色？”")


@dataclass
class AgentResult:
    """How a query ended (the `final` event) and every event of the run, in order."""

    final: Final
    events: list[AgentEvent] = field(default_factory=list)

    @property
    def status(self) -> str:
        """answered | not_found | cancelled | timeout | error."""
        return self.final.status

    @property
    def answer(self) -> str:
        """The answer in words."""
        return self.final.answer

    @property
    def codes(self) -> list[str]:
        """The codes the answer is about."""
        return self.final.codes


def default_planner() -> Planner:
    """The OpenAI planner when OPENAI_API_KEY is set, the offline planner otherwise."""
    model = load_model_settings()
    if model is None:
        from scene_agent.agent.offline_planner import OfflinePlanner

        return OfflinePlanner()
    from scene_agent.agent.openai_planner import OpenAIPlanner  # imports openai only when used

    return OpenAIPlanner(model)


class SceneAgent:
    """Answers queries about one scene, turn after turn, keeping the history and every question asked."""

    def __init__(self, scene: Scene, settings: Settings | None = None, planner: Planner | None = None, *,
                 questions: QuestionChannel | None = None, ask_questions: bool | None = None,
                 selection_timeout: float = DEFAULT_TIMEOUT_S, question_timeout: float = DEFAULT_QUESTION_TIMEOUT_S,
                 channel: SelectionChannel | None = None, lang: Lang | None = None):
        self.scene = scene
        self.settings = settings or load_settings()
        self.planner = planner or default_planner()
        self.desk = QuestionDesk(questions)
        self.ask_questions = self.settings.ask_questions if ask_questions is None else ask_questions
        self.selection_timeout = selection_timeout
        self.question_timeout = question_timeout
        self.channel = channel or open_channel(self.settings)  # where picks are opened and awaited
        self.lang: Lang = lang or load_language()  # the answer's language when a question does not show its own
        self.history: list[Exchange] = []
        self.records = ConversationRecords()
        self._lock = threading.Lock()  # one turn at a time: history is sequential

    def query(self, text: str, on_event: EventSink | None = None, control: RunControl | None = None,
              lang: Lang | None = None, viewpoint: Viewpoint | None = None) -> AgentResult:
        """Answer one query in its own language (else `lang`, else the agent's); `on_event` sees every event as it
        happens, the `final` event last. `viewpoint` is what the person sees now (the web viewer's camera): every
        tool call of the turn runs with it, so that left and right mean theirs; None where there is no view."""
        with self._lock:
            return self._query(text, on_event, control or RunControl(), detect_language(text) or lang or self.lang,
                               viewpoint)

    def _query(self, text: str, on_event: EventSink | None, control: RunControl, lang: Lang,
               viewpoint: Viewpoint | None = None) -> AgentResult:
        emit = EventLog(on_event)
        turn_number = len(self.history) + 1
        interaction = Interaction(self.settings, emit, self.records, turn_number, desk=self.desk,
                                  questions_enabled=self.ask_questions, question_timeout=self.question_timeout)
        context = ToolContext(self.scene, self.settings, lang, channel=self.channel, selection_timeout=self.selection_timeout,
                              viewpoint=viewpoint)
        toolbox = Toolbox(context, emit, interaction, query=text, control=control, model=self.planner.decide_model())
        reply = self._plan(Turn(text.strip(), tuple(self.history), lang), toolbox)
        if control.stopped.is_set() and reply.status == "answered":
            reply = Reply(status="cancelled", answer=f"{reply.answer}\n(The run was {control.reason}.)", codes=reply.codes,
                          viewer_url=reply.viewer_url, memory=reply.memory)
        viewer_url = reply.viewer_url or (toolbox.viewer_urls[-1] if toolbox.viewer_urls else None)
        final = Final(status=reply.status, answer=reply.answer, codes=list(reply.codes), viewer_url=viewer_url)
        self.history.append(Exchange(query=text.strip(), answer=reply.answer, status=reply.status, codes=tuple(reply.codes),
                                     asked=tuple(self.records.list(turn=turn_number)), memory=reply.memory))
        emit(final)
        return AgentResult(final=final, events=emit.events)

    def _plan(self, turn: Turn, toolbox: Toolbox) -> Reply:
        if not turn.query:
            return Reply(status="error", answer=EMPTY_QUESTION(turn.lang))
        try:
            return self.planner.run(turn, toolbox)
        except SceneAgentError as exc:
            return Reply(status="error", answer=exc.message)
        except Exception as exc:  # a run always ends with a final event, even on a bug
            log.exception("the %s planner failed", self.planner.name)
            return Reply(status="error", answer=f"Something went wrong inside the agent ({type(exc).__name__}: {exc}).")
