"""Every word list of kg/data/cues.json is exercised by a test sentence: emptied, the list
changes what that sentence gives. A list no sentence needs is dead data, and a new list
needs a sentence here (`test_every_cue_list_has_a_sentence`).

Each case is (sentence, fact, holds): with the shipped lists the extraction of the sentence
holds `fact` (or, where `holds` is False, does not), and with the list emptied the other way
round; a fact of None asserts a change, whichever way. Facts: "entity:NAME",
"type:NAME=TYPE", "proposed:NAME", "relation:HEAD REL TAIL" ("paper" for the paper itself),
"result:SUBJECT=VALUE@BENCHMARK". The sentences are made up, or come from the seeds and the
gold pool (../shared/gold/pool.jsonl). Every list is emptied in a process of its own
(forked from one that has imported spaCy), as the lists are read when the extractor's
modules are imported: about 30 s on two cores. A process that fails names its list and
shows its traceback.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import pytest

from kg.extract.cues import Cues

ROOT = Path(__file__).resolve().parents[1]

DOCUMENT = (
    "This paper presents max-margin majority voting (M^3V) to improve the discriminative "
    "ability of majority voting and further presents a Bayesian generalization to "
    "incorporate the flexibility of generative methods on modeling noisy observations "
    "with worker confusion matrices."
)
LLARP = (
    "We show that LLMs can act as policies. Our approach, called Large LAnguage model "
    "Reinforcement Learning Policy (LLaRP), adapts a frozen LLM."
)
SEMANTIC_SHIFT = (
    "To address those issues, we propose a simple yet intuitive framework for how "
    "semantic shifts occur over multiple time periods by utilizing similarity matrices "
    "based on word embeddings. This phenomenon is referred to as semantic shift. "
    "Additionally, by clustering the resulting similarity matrices, we can categorize "
    "words that exhibit similar behavior of semantic shift in an unsupervised manner."
)
# the last sentences of the gold pool abstract neurips2023:oGxE2Nvlda, whose gold holds
# "decoupled regularization part_of UniT"
UNIT = (
    "To mitigate the aforementioned limitations, we propose a unified framework named UniT "
    "that enables us to train flexibly in either fashion by working in the word embedding "
    "space. It can provide a stronger robustness guarantee obtained directly from the word "
    "embedding space without extra modules. In addition, we introduce the decoupled "
    "regularization (DR) loss to improve the robustness of the base model, which includes "
    "two separate robustness regularization terms for the feature extraction and "
    "classifier modules. Experimental results on widely used text classification datasets "
    "further demonstrate the effectiveness of the designed unified framework and the "
    "proposed DR loss for improving the certified robust accuracy."
)
# the gold pool abstract iclr2024:05a032243d28184a3102f9fc03c775e53cc11f84
DELTA_AI = (
    "We present a new algorithm for amortized inference in sparse probabilistic "
    "graphical models (PGMs), which we call $\\Delta$-amortized inference "
    "($\\Delta$-AI). Our approach is based on the observation that when the sampling "
    "of variables in a PGM is seen as a sequence of actions taken by an agent, "
    "sparsity of the PGM enables local credit assignment in the agent's policy "
    "learning objective. This yields a local constraint that can be turned into a "
    "local loss in the style of generative flow networks (GFlowNets) that enables "
    "off-policy training but avoids the need to instantiate all the random variables "
    "for each parameter update, thus speeding up training considerably. The "
    "$\\Delta$-AI objective matches the conditional distribution of a variable given "
    "its Markov blanket in a tractable learned sampler, which has the structure of a "
    "Bayesian network, with the same conditional distribution under the target PGM. "
    "As such, the trained sampler recovers marginals and conditional distributions of "
    "interest and enables inference of partial subsets of variables. We illustrate "
    "$\\Delta$-AI's effectiveness for sampling from synthetic PGMs and training latent "
    "variable models with sparse factor structure. Code: "
    "https://github.com/GFNOrg/Delta-AI."
)
AGENT = (
    "We propose FooAgent. On WebArena, FooAgent improves (14.9% to 33.5%) over prior "
    "agents, while on MiniWoB++, FooAgent matches them with less data."
)
ATLAS = (
    "We present ATLAS, a data collection tool designed to better support researchers in "
    "collecting rich PDF-centric datasets from users. ATLAS supports researchers in "
    "programmatically creating a user interface for data collection that is ready to "
    "share with annotators. It includes a toolkit and an extensible schema to easily "
    "customize the data collection tasks for a variety of purposes, allowing collection "
    "of PDF annotations (e.g., highlights, drawings) as well as reading behavior "
    "analytics (e.g., page scroll, text selections). We open-source ATLAS1 to support "
    "future research efforts and review use cases of ATLAS that showcase our system’s "
    "broad applicability."
)
RESNETS = (
    "Second, we identify a novel causal mechanism by which skip connections accelerate "
    "training, which we verify predictively with ResNets on MNIST, CIFAR10, CIFAR100 and "
    "ImageNet."
)

#: cue list → (sentence, fact, whether the shipped lists give the fact); a fact of None:
#: the extraction changes, whichever way
CASES: dict[str, tuple[str, str | None, bool]] = {
    "adjective_suffixes": (
        "We propose FooNet, a BERT-based retriever.",
        "relation:FooNet uses BERT",
        True,
    ),
    "articles": (
        "We present AraDiCE, a benchmark for Arabic Dialect and Cultural Evaluation.",
        "entity:AraDiCE",
        False,
    ),
    "benchmark_suffixes": ("We evaluate on MATH-500 and NExT-QA.", "type:NExT-QA=Benchmark", True),
    "calling_verbs": (
        "We call our approach loss shaping constraints because it works.",
        "entity:loss shaping constraints",
        True,
    ),
    "candidate_heads": (
        "We introduce Trellis, a novel Transformer architecture with bounded memory.",
        "relation:Trellis uses Transformer",
        False,
    ),
    "component_cues": (
        "In this paper, we develop a recurrent spiking neural network (RSNN) model embedded "
        "with an advanced spiking convolutional block attention module (SCBAM) component to "
        "combine both spatial and temporal features of spatio-temporal patterns.",
        "relation:spiking convolutional block attention module part_of recurrent spiking "
        "neural network",
        True,
    ),
    "document_nouns": (DOCUMENT, "proposed:majority voting", False),
    "document_verbs": (DOCUMENT, "proposed:majority voting", False),
    "dotted_abbreviations": (
        "We compare against FooNet of Li et al. and propose BarNet.",
        "proposed:BarNet",
        True,
    ),
    "eval_words": (
        "Extensive experimental results on CIFAR-10 and ImageNet show that our method is "
        "competitive with state-of-the-art methods.",
        "type:ImageNet=Benchmark",
        True,
    ),
    "evaluation_context_words": (
        "Lastly, we show that the framework generalizes to open-source LLMs as editors, with "
        "models trained on VaPR-OS achieving ~99% of the performance of models trained on "
        "VaPR, which is synthesized using GPT-4o.",
        "type:VaPR-OS=Dataset",
        True,
    ),
    "evaluation_heads": (
        "We present Gauge, an evaluation framework that scores agents.",
        "type:Gauge=Benchmark",
        True,
    ),
    "evaluation_verbs": (
        "We propose FooGauge, a framework for evaluating the honesty of LLMs.",
        "type:FooGauge=Benchmark",
        True,
    ),
    "example_cues": (
        "Our experimental evaluations demonstrate that RigorLLM not only outperforms existing "
        "baselines like OpenAI API and Perspective API in detecting harmful content but also "
        "exhibits unparalleled resilience to jailbreaking attacks.",
        "entity:Perspective API",
        True,
    ),
    "folded_name_suffixes": ("We use the FooPref dataset.", "entity:FooPref", True),
    "gain_words": (
        "We propose FooSSO. FooSSO shows a clear improvement over SAM in image classification.",
        "relation:FooSSO uses SAM",
        False,
    ),
    "generic_first_words": (
        LLARP,
        "relation:Large LAnguage model Reinforcement Learning Policy uses LLaRP",
        False,
    ),
    "generic_terms": (
        "It sparsifies more, **(II)** preserves more.",
        "entity:It sparsifies more",
        False,
    ),
    "list_joiners": (
        "We propose FooNet. FooNet outperforms BERT on English and Chinese "
        "text, at 300 GPU-hours in USD.",
        "entity:English and Chinese",
        False,
    ),
    "means_words": (
        "We propose FooCopilot. FooCopilot outperforms ChatGPT, achieving "
        "90.5% preference in citation quality.",
        "result:ChatGPT=90.5@None",
        False,
    ),
    "method_use_cues": ("We propose FooNet. It is built on GIN.", "relation:FooNet uses GIN", True),
    "metric_words": ("It reaches BLEU 28.4 on WMT.", "type:BLEU=Metric", True),
    "model_variant_parts": ("We tune the Base 7B model.", "entity:Base 7B", False),
    "name_determiners": (ATLAS, "type:ATLAS=Method", True),
    "name_joiners": (
        "We build FooDocs (Retrieval with Ambiguous Documents), a new dataset.",
        "proposed:Retrieval with Ambiguous Documents",
        True,
    ),
    "named_skip": (
        "It reads two losses, namely the average loss and the maximum loss.",
        "entity:maximum loss",
        True,
    ),
    "named_stop": (
        "We propose a diagnosis method called MD tree based on metrics.",
        "entity:MD tree",
        True,
    ),
    "naming_cues": ("Our model, dubbed FooLM, is small.", "proposed:FooLM", True),
    "naming_words": (
        "We propose a diagnosis method called MD tree based on metrics.",
        "proposed:MD tree",
        True,
    ),
    "novelty_words": (DELTA_AI, "proposed:Δ-amortized inference", True),
    "numbered_metrics": ("We report Top-10 accuracy on QuxSet.", "type:Top-10=Metric", True),
    "numbered_parts": (
        "We propose FooNet. Results in Table 3 and Figure 2 show that FooNet "
        "beats BM25 on MS MARCO.",
        "entity:Results in Table 3",
        False,
    ),
    # a part the paper proposes, named with a part word in a sentence naming its system
    "part_words": (
        "We propose FooNet, a retrieval framework. FooNet introduces BarAttn, a novel sparse "
        "attention mechanism.",
        "relation:BarAttn part_of FooNet",
        True,
    ),
    "plural_heads": ("We evaluate FooNet on four KBQA datasets.", "type:KBQA=Task", True),
    "prior_work_words": (
        "We extend the recently introduced FooMC algorithm with a learned proposal.",
        "proposed:FooMC",
        False,
    ),
    "proposal_np_stop": (
        "We name the resulting dataset Pile-Clean here.",
        "proposed:Pile-Clean",
        True,
    ),
    "proposal_object_stop": (
        "We introduce FooNet. We also propose a loss that, combined with BarNet, works.",
        "proposed:BarNet",
        False,
    ),
    "proposal_phrase_after": (
        "We propose heat kernel attention, which learns on surface meshes.",
        "proposed:heat kernel attention",
        True,
    ),
    "proposal_phrase_stop": ("We introduce RAG-Bench for retrieval.", "entity:RAG-Bench", True),
    "proposal_subjects": ("Abstract: we propose FooNet.", "proposed:FooNet", True),
    "proposal_verbs": ("Abstract: we propose FooNet.", "relation:paper proposes FooNet", True),
    "proposer_words": (
        "We propose heat kernel attention, which learns on surface meshes.",
        "entity:heat kernel attention",
        True,
    ),
    "quantity_words": ("We evaluate FooNet on four KBQA datasets.", "type:KBQA=Task", True),
    "refer_verbs": (SEMANTIC_SHIFT, "entity:semantic shift", True),
    "relation_cues": (RESNETS, "relation:ResNets evaluated_on CIFAR100", True),
    "result_clause_breaks": (AGENT, "result:FooAgent=33.5@WebArena", True),
    "result_delta_words": (
        "For instance, LoX leads to 11% to 54% absolute reductions in attack success rates "
        "(ASR) facing benign or malicious fine-tuning attacks.",
        "result:LoX=54@None",
        False,
    ),
    # the only sentences found where the list changes the outcome read a figure after
    # "to" as a difference; the list is measured in the result CV ("to" taken out of it:
    # result_cv.py --extra 0.556 -> 0.548), so here any change is asserted, not its way
    "result_fillers": (
        "We propose FooDiff. FooDiff reduces the FID score to 1.79 on CIFAR-10.",
        None,
        True,
    ),
    # made up after the gold pool abstract of LaDiC (naacl2024.long.373), whose gold holds
    # "LaDiC = 126.2 on MS COCO": a metric's name (CIDEr) is no benchmark
    "result_metric_words": (
        "We propose FooDiC. FooDiC achieves state-of-the-art performance on the MS COCO "
        "dataset with 38.2 BLEU@4 and 126.2 CIDEr.",
        "result:FooDiC=126.2@MS COCO",
        True,
    ),
    "result_rival_words": (
        "We propose FooNet. FooNet achieves 45.1% on GSM8K, compared to 40.2% for the baseline.",
        "result:FooNet=40.2@GSM8K",
        False,
    ),
    # made up after the gold pool abstract of MetaCLIP (iclr2024:9c2e91f6…), whose gold holds
    # "MetaCLIP = 72.4 on ImageNet" for "Scaling to 1B data, …, attains 72.4%"
    "result_score_verbs": (
        "We introduce FooCLIP. On ImageNet, FooCLIP achieves 70.8% accuracy. Scaling to 1B "
        "data attains 72.4%.",
        "result:FooCLIP=72.4@ImageNet",
        True,
    ),
    # made up after the gold pool abstract of MC-SMoE (iclr2024:93b33eef…), whose gold holds
    # no result: "up to 80% memory (reduction)" is a gain, not a score
    "result_skip_cues": (
        "We propose FooMoE. Our FooMoE achieves up to 80% memory and a 20% FLOPs reduction, "
        "with virtually no loss in performance.",
        "result:FooMoE=80@None",
        False,
    ),
    # a word for the paper's own system ("the proposed architecture", "our model") ties a part to it
    "self_nouns": (UNIT, "relation:decoupled regularization part_of UniT", True),
    "short_form_introducers": (
        "We propose Sparse Token Routing (abbreviated as STR), a routing "
        "method. STR beats BM25 on MS MARCO.",
        "relation:Sparse Token Routing outperforms BM25",
        True,
    ),
    "strict_task_heads": (
        "Traffic Flow Forecasting (TFF) is hard, and existing methods often fail on it.",
        "type:Traffic Flow Forecasting=Task",
        True,
    ),
    "strong_comparison_cues": (
        "On in-distribution data, the DePlot-based method (b) outperforms PaLI-3 (c), while "
        "being significantly more efficient (300M vs 3B trainable parameters).",
        "type:PaLI-3=Model",
        True,
    ),
    "study_verbs": (
        "We propose FooNet for retrieval. We evaluate FooNet with data drawn from QuxQA and "
        "from BazQA.",
        "relation:FooNet evaluated_on QuxQA",
        True,
    ),
    "task_heads": (
        "Zero-shot Relation Triplet Extraction (ZSRTE) aims to extract triplets from the "
        "context where the relation patterns are unseen during training.",
        "entity:Zero-shot Relation Triplet Extraction",
        False,
    ),
    "train_words": ("We train ReaForest on proofs.", "entity:ReaForest", True),
    "training_words": (
        "After evaluating a generated chatbot trained on the Amazon Massive dataset, our Wolof "
        "Intent Classifier performs similarly to the one obtained for French, which is a "
        "resource-rich language.",
        "relation:Wolof Intent Classifier uses Amazon Massive",
        True,
    ),
    "type_context_words": (
        "We introduce GlyphSynth publicly available, a specialized dataset.",
        "type:GlyphSynth=Dataset",
        True,
    ),
    "type_heads": ("Top 1/5 accuracy on ImageNet 1/8 subsets.", "type:ImageNet=Benchmark", True),
    "versus_cues": (
        "FooNet gains a 29.7% relative improvement over OldNet on BazQA.",
        "type:OldNet=Method",
        True,
    ),
    "versus_words": (
        "We propose FooNet. FooNet improves accuracy by 41% (Qwen2.5-7B) and 20% "
        "(Qwen2.5-3B) over RAG baselines on HotpotQA.",
        "relation:FooNet outperforms RAG",
        True,
    ),
}


#: run in a process of its own: the facts of each case's sentence with the shipped lists,
#: and with its list emptied
CHILD = Path(__file__).with_name("cue_ablation.py")


@pytest.fixture(scope="module")
def extracted() -> dict[str, dict[str, list[str]]]:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = subprocess.run(
        [sys.executable, str(CHILD)],
        input=json.dumps({name: case[0] for name, case in CASES.items()}),
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_cue_list_has_a_sentence():
    assert sorted(CASES) == sorted(f.name for f in fields(Cues))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(CASES))
def test_emptying_a_cue_list_changes_its_sentence(extracted, name):
    _, fact, holds = CASES[name]
    shipped, emptied = extracted["shipped"][name], extracted["emptied"][name]
    for got in (shipped, emptied):
        if isinstance(got, dict):
            pytest.fail(got["error"])
    if fact is None:
        assert shipped != emptied
        return
    assert (fact in shipped) is holds, shipped
    assert (fact in emptied) is not holds, emptied
